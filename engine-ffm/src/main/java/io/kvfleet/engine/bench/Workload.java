package io.kvfleet.engine.bench;

import io.kvfleet.engine.Peer;
import io.kvfleet.engine.Registration;
import io.kvfleet.engine.RemoteRegion;
import io.kvfleet.engine.TransferBatch;
import io.kvfleet.engine.TransferResult;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Random;

/** What one row of the bench moves, and how. */
record Workload(String name, long size, long ops, int perBatch, long remoteBytes,
    List<long[]> pages) {

  /** {@code ops} puts of {@code size} bytes to the same remote range, as ucx_perftest does. */
  static Workload sameRange(long size, long ops, int perBatch) {
    long rounded = (ops + perBatch - 1) / perBatch * perBatch;
    return new Workload(EngineBench.human(size), size, rounded, perBatch, size, List.of());
  }

  /** Batches of {@code pages} pages to pages scattered over a region twice as large. */
  static Workload kvPages(int pages, long pageSize, int batches) {
    List<long[]> pairs = new ArrayList<>();
    List<Integer> destinations = new ArrayList<>();
    for (int page = 0; page < 2 * pages; page++) {
      destinations.add(page);
    }
    Collections.shuffle(destinations, new Random(42));
    for (int page = 0; page < pages; page++) {
      pairs.add(new long[] {page * pageSize, destinations.get(page) * pageSize});
    }
    return new Workload("KV " + pages + " x " + EngineBench.human(pageSize) + " scattered", pageSize,
        (long) pages * batches, pages, 2 * pages * pageSize, pairs);
  }

  Measurement run(Peer peer, Registration source, RemoteRegion remote) {
    TransferBatch batch = new TransferBatch();
    for (int i = 0; i < perBatch; i++) {
      long[] pair = pages.isEmpty() ? new long[] {0, 0} : pages.get(i);
      batch.add(source, pair[0], remote, pair[1], size);
    }
    long batches = ops / perBatch;
    for (long i = 0; i < Math.max(1, batches / 10); i++) {
      check(peer.write(batch));
    }
    long start = System.nanoTime();
    for (long i = 0; i < batches; i++) {
      check(peer.write(batch));
    }
    return new Measurement(ops * size, ops, System.nanoTime() - start);
  }

  /** The median time of a one-op batch of {@code size} bytes, post to remote completion. */
  long latencyNanos(Peer peer, Registration source, RemoteRegion remote, long budgetBytes) {
    int samples = Math.clamp(budgetBytes / size / 8, 50, 2000);
    TransferBatch one = new TransferBatch().add(source, 0, remote, 0, size);
    for (int i = 0; i < samples / 10 + 1; i++) {
      check(peer.write(one));
    }
    long[] nanos = new long[samples];
    for (int i = 0; i < samples; i++) {
      long start = System.nanoTime();
      check(peer.write(one));
      nanos[i] = System.nanoTime() - start;
    }
    Arrays.sort(nanos);
    return nanos[samples / 2];
  }

  private static void check(TransferResult result) {
    if (!result.succeeded()) {
      throw new IllegalStateException("a benchmark batch failed: " + result);
    }
  }
}
