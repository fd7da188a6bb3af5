package io.kvfleet.engine.bench;

import io.kvfleet.engine.Engine;
import io.kvfleet.engine.EngineConfig;
import io.kvfleet.engine.HostMemory;
import io.kvfleet.engine.Peer;
import io.kvfleet.engine.RegionRequest;
import io.kvfleet.engine.Registration;
import io.kvfleet.engine.RemoteRegion;
import io.kvfleet.engine.TransferBatch;

/** Host-backend WRITE figures between two engines of one process: 16 KiB scattered pages and 4 MiB runs. */
public final class HostPathFigures {
  public static void main(String[] args) {
    long bytes = 64L << 20;
    EngineConfig config = EngineConfig.defaults().withBackends("host");
    try (Engine a = Engine.open(config.withName("a")); Engine b = Engine.open(config.withName("b"))) {
      HostMemory from = a.allocate("from", bytes);
      HostMemory to = b.allocate("to", bytes);
      from.segment().fill((byte) 7);
      to.segment().fill((byte) 0);
      Registration local = a.register(RegionRequest.of(from)).registration("host").orElseThrow();
      Registration remote = b.register(RegionRequest.of(to)).registration("host").orElseThrow();
      Peer peer = a.connect(b.address("host"));
      RemoteRegion region = peer.attach(remote.remoteKey());
      for (long size : new long[] {4096, 16384, 1 << 20, 4 << 20}) {
        TransferBatch batch = new TransferBatch();
        int ops = (int) Math.min(1024, bytes / size);
        for (int i = 0; i < ops; i++) {
          batch.add(local, i * size, region, ((i * 37L) % ops) * size, size);
        }
        double best = 0;
        double bestLatency = Double.MAX_VALUE;
        for (int run = 0; run < 5; run++) {
          long start = System.nanoTime();
          int rounds = 0;
          while (System.nanoTime() - start < 400_000_000L) {
            if (!peer.write(batch).succeeded()) {
              throw new IllegalStateException("write failed");
            }
            rounds++;
          }
          long nanos = System.nanoTime() - start;
          best = Math.max(best, (double) rounds * ops * size / nanos);
          bestLatency = Math.min(bestLatency, (double) nanos / rounds / 1000.0);
        }
        System.out.printf("host %s: %d ops of %d B per batch: %.2f GB/s, %.1f us per batch%n", peer.path(), ops, size,
            best, bestLatency);
      }
    }
  }
}
