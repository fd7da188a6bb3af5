package io.kvfleet.control.demo;

import io.kvfleet.control.kafka.EventPublisher;
import io.kvfleet.events.ByteRange;
import io.kvfleet.events.TransferOp;
import io.kvfleet.events.TransferRequested;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongSupplier;

/**
 * A router's stream of prefill→decode KV transfers: random pages of the prefill node's KV cache
 * to random pages of the decode node's. Every tenth request names a page past the end, to show
 * the coordinator's validation at work.
 */
final class Workload {
  private final EventPublisher router;
  private final Random random = new Random(42);
  private final AtomicInteger count = new AtomicInteger();
  /** The nodes' current epochs, as a router learns them (a fenced agent joins again with a new one). */
  private final LongSupplier prefillEpoch;
  private final LongSupplier decodeEpoch;

  Workload(EventPublisher router, LongSupplier prefillEpoch, LongSupplier decodeEpoch) {
    this.router = router;
    this.prefillEpoch = prefillEpoch;
    this.decodeEpoch = decodeEpoch;
  }

  /** Publishes the next request. */
  void next() {
    int n = count.incrementAndGet();
    int pages = 1 + random.nextInt(16);
    List<ByteRange> ranges = new ArrayList<>();
    for (int i = 0; i < pages; i++) {
      int from = random.nextInt(DemoBuffers.PAGES);
      int to = n % 10 == 0 && i == 0 ? DemoBuffers.PAGES + 3 : random.nextInt(DemoBuffers.PAGES);
      ranges.add(new ByteRange(from * DemoBuffers.PAGE, (long) to * DemoBuffers.PAGE, DemoBuffers.PAGE));
    }
    long deadline = System.currentTimeMillis() + Duration.ofSeconds(10).toMillis();
    var request = new TransferRequested("t-" + n, DemoFleet.PREFILL, prefillEpoch.getAsLong(),
        DemoBuffers.KV, DemoFleet.DECODE, decodeEpoch.getAsLong(), DemoBuffers.KV, TransferOp.WRITE, ranges, deadline, true);
    router.publish(request, request.transferId());
  }
}
