package io.kvfleet.control.demo;

import io.kvfleet.control.kafka.EventPublisher;
import io.kvfleet.events.RequestPart;
import io.kvfleet.events.TransferRequested;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongSupplier;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A router's stream of request transfers of the demo's hybrid model: each inference request's KV
 * pages, conv and SSM state slots and aux slot, from the prefill node to one of two decode nodes in
 * turn. One of them registered the conv state but not the SSM state, and the coordinator rejects
 * every request to it before a byte moves; the other completes them.
 */
final class RequestWorkload {
  private final EventPublisher router;
  private final Random random = new Random(7);
  private final AtomicInteger count = new AtomicInteger();
  private final LongSupplier prefillEpoch;
  private final List<String> decodeNodes;
  private final List<LongSupplier> decodeEpochs;

  RequestWorkload(EventPublisher router, LongSupplier prefillEpoch, List<String> decodeNodes,
      List<LongSupplier> decodeEpochs) {
    this.router = router;
    this.prefillEpoch = prefillEpoch;
    this.decodeNodes = List.copyOf(decodeNodes);
    this.decodeEpochs = List.copyOf(decodeEpochs);
  }

  /** Publishes the next request transfer. */
  void next() {
    int n = count.incrementAndGet();
    int to = n % decodeNodes.size();
    int pages = 1 + random.nextInt(8);
    int first = random.nextInt(HybridModel.PAGES - pages);
    int at = random.nextInt(HybridModel.PAGES - pages);
    List<Integer> src = new ArrayList<>();
    List<Integer> dst = new ArrayList<>();
    for (int i = 0; i < pages; i++) {
      src.add(first + i);
      dst.add(at + i);
    }
    int slot = random.nextInt(HybridModel.SLOTS);
    int into = random.nextInt(HybridModel.SLOTS);
    var parts = List.of(new RequestPart("kv", src, dst), new RequestPart("conv", List.of(slot), List.of(into)),
        new RequestPart("ssm", List.of(slot), List.of(into)), new RequestPart("aux", List.of(slot), List.of(into)));
    var request = TransferRequested.ofRequest("r-" + n, "room-" + n, DemoFleet.PREFILL,
        prefillEpoch.getAsLong(), decodeNodes.get(to), decodeEpochs.get(to).getAsLong(), parts, List.of(),
        System.currentTimeMillis() + Duration.ofSeconds(10).toMillis(), true);
    router.publish(request, request.transferId());
  }
}
