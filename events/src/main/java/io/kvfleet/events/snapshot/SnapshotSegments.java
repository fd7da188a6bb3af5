package io.kvfleet.events.snapshot;

import io.kvfleet.events.state.StateImage;
import io.kvfleet.events.state.TransferView;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * A snapshot's segments ({@link SnapshotWriter}) decoded on every core and put back together: the
 * first is the image without its transfers, the others runs of transfers that must come in
 * ascending key order with no key twice, so that the image rebuilt is the one written.
 */
final class SnapshotSegments {
  /** Daemon threads, one a core: decoding is all CPU, and a snapshot restore must not keep a JVM alive. */
  private static final ExecutorService POOL = Executors.newFixedThreadPool(
      Runtime.getRuntime().availableProcessors(), Thread.ofPlatform().name("kvfleet-snapshot-", 0).daemon().factory());

  private SnapshotSegments() {}

  /** {@code image} with {@code transfers} in place of its own. */
  static StateImage withTransfers(StateImage image, SortedMap<String, TransferView> transfers) {
    return new StateImage(image.applied(), image.peers(), image.regions(), image.staleRegistrations(),
        image.staleKeys(), image.failures(), image.failuresByReason(), transfers, image.keepEndedMillis(),
        image.forgottenTransfers(), image.lateOutcomes(), image.sequences(), image.skipped(), image.decisions(),
        image.opaqueByType(), image.violations(), image.layouts());
  }

  /** Decodes every segment (the transfer runs in parallel) and rebuilds the image they hold. */
  static StateImage assemble(List<ByteBuffer> segments) {
    var runs = new ArrayList<CompletableFuture<Object>>();
    for (ByteBuffer segment : segments.subList(1, segments.size())) {
      runs.add(CompletableFuture.supplyAsync(() -> SnapshotReader.segment(segment), POOL));
    }
    Object first = SnapshotReader.segment(segments.getFirst());
    if (!(first instanceof StateImage image)) {
      cancel(runs);
      throw new InvalidSnapshotException("the snapshot's first segment does not hold a fleet state");
    }
    if (!image.transfers().isEmpty()) {
      cancel(runs);
      throw new InvalidSnapshotException("the snapshot's first segment holds transfers; they belong in later ones");
    }
    var transfers = new TreeMap<String, TransferView>();
    for (var run : runs) {
      addRun(transfers, join(run, runs));
    }
    return withTransfers(image, transfers);
  }

  private static void addRun(TreeMap<String, TransferView> transfers, Object run) {
    if (!(run instanceof Map<?, ?> map) || map.isEmpty()) {
      throw new InvalidSnapshotException("a segment after the first does not hold a run of transfers");
    }
    for (Map.Entry<?, ?> entry : map.entrySet()) {
      if (!(entry.getKey() instanceof String id) || !(entry.getValue() instanceof TransferView view)) {
        throw new InvalidSnapshotException("a run of transfers holds " + entry.getKey() + " -> " + entry.getValue());
      }
      if (!transfers.isEmpty() && transfers.lastKey().compareTo(id) >= 0) {
        throw new InvalidSnapshotException("transfer " + id + " comes after " + transfers.lastKey()
            + ": the runs of transfers are out of order");
      }
      transfers.put(id, view);
    }
  }

  private static Object join(CompletableFuture<Object> run, List<CompletableFuture<Object>> all) {
    try {
      return run.join();
    } catch (CompletionException e) {
      cancel(all);
      throw e.getCause() instanceof RuntimeException r ? r : new InvalidSnapshotException("unreadable snapshot: " + e);
    }
  }

  private static void cancel(List<CompletableFuture<Object>> runs) {
    runs.forEach(r -> r.cancel(false));
  }
}
