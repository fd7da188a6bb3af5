package io.kvfleet.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/**
 * The control plane calls the engine from several worker threads: batches on one peer and
 * registrations on one engine from four threads at once all complete, and the bytes land.
 */
class ConcurrentTransfersTest {
  private static final long PAGE = 4096;

  @Test
  void fourThreadsWriteTheirOwnPagesThroughOnePeer() throws Exception {
    EngineConfig config = EngineConfig.defaults().withBackends("ucx");
    try (Engine source = Engine.open(config); Engine target = Engine.open(config)) {
      Capability ucx = source.capability("ucx").orElseThrow();
      assumeTrue(ucx.available(), "ucx is not available here: " + ucx.detail());
      HostMemory from = source.allocate("from", 4 * 64 * PAGE);
      HostMemory to = target.allocate("to", 4 * 64 * PAGE);
      BackendContract.fill(from.segment(), 11);
      Registration local = source.register(RegionRequest.of(from)).registration("ucx").orElseThrow();
      Registration remoteRegion = target.register(RegionRequest.of(to)).registration("ucx").orElseThrow();
      Peer peer = source.connect(target.address("ucx"));
      RemoteRegion remote = peer.attach(remoteRegion.remoteKey());

      ExecutorService workers = Executors.newFixedThreadPool(4);
      List<Future<Integer>> done = new ArrayList<>();
      for (int thread = 0; thread < 4; thread++) {
        long base = thread * 64 * PAGE;
        done.add(workers.submit(() -> work(source, peer, local, remote, base)));
      }
      for (Future<Integer> result : done) {
        assertThat(result.get()).isEqualTo(500);
      }
      workers.shutdown();
      assertThat(to.segment().mismatch(from.segment())).isEqualTo(-1);
    }
  }

  /** 500 rounds of: write this thread's 64 pages, register and deregister a scratch buffer. */
  private static int work(Engine source, Peer peer, Registration local, RemoteRegion remote,
      long base) {
    int ok = 0;
    TransferBatch batch = new TransferBatch();
    try (HostMemory own = source.allocate("scratch", 16 * PAGE)) {
      MemorySegment scratch = own.segment();
      for (int round = 0; round < 500; round++) {
        batch.clear();
        for (int page = 0; page < 64; page++) {
          batch.add(local, base + page * PAGE, remote, base + page * PAGE, PAGE);
        }
        ok += peer.write(batch).succeeded() ? 1 : 0;
        RegistrationResult extra = source.register(
            RegionRequest.dram("scratch", scratch.address(), scratch.byteSize()));
        ok += extra.registered() ? 0 : -1000;
        extra.registrations().forEach(source::deregister);
      }
    }
    return ok;
  }
}
