package io.kvfleet.control.replay;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** What a replay holds between reading and folding: bounded in bytes, not only in records. */
class DecodePipelineTest {

  /**
   * A 98 KB export of twelve tombstones with 250 MiB keys ran a replay out of heap: batches were counted in
   * records, so a dozen records of a line's largest size were in flight at once. Now the reader waits once
   * {@link DecodePipeline#MAX_IN_FLIGHT} bytes are handed over and not folded.
   */
  @Test
  void theReaderWaitsOnceTheBytesHandedOverAndNotFoldedReachTheBound() throws Exception {
    byte[] large = new byte[64 << 20]; // one array for every record: the bound counts what records say they hold
    var folding = new CountDownLatch(1);
    var accepted = new AtomicInteger();
    var folded = new AtomicInteger();
    // Four decoders: a queue of sixteen batches, so only the bound in bytes stops the reader at four records.
    try (var pipeline = new DecodePipeline(4, r -> {
      await(folding);
      folded.incrementAndGet();
      return true;
    })) {
      var reader = Thread.ofPlatform().start(() -> {
        for (int i = 0; i < 20; i++) {
          pipeline.accept(new StoredRecord("kvfleet.nodes", 0, i, 0, null, List.of(), large));
          accepted.incrementAndGet();
        }
        pipeline.finish();
      });
      Thread.sleep(1_000);

      assertThat(accepted.get()).as("records read while the fold holds the first")
          .isEqualTo((int) (DecodePipeline.MAX_IN_FLIGHT / large.length));
      folding.countDown();
      reader.join(TimeUnit.SECONDS.toMillis(60));
    }
    assertThat(folded.get()).isEqualTo(20);
  }

  private static void await(CountDownLatch latch) {
    try {
      latch.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
