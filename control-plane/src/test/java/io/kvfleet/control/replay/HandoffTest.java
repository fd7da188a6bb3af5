package io.kvfleet.control.replay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

/** {@link Handoff}: the export's stages keep the reading order and say why a stage stopped. */
class HandoffTest {

  @Test
  void handsEveryItemOverInTheOrderItWasQueuedOnItsOwnThread() {
    var seen = new ArrayList<Long>();
    var threads = new ArrayList<String>();
    try (var handoff = new Handoff<Long>("test-worker", n -> {
      seen.add(n);
      if (threads.isEmpty()) {
        threads.add(Thread.currentThread().getName());
      }
    })) {
      LongStream.range(0, 10_000).forEach(handoff::accept); // several batches and a partial one
      handoff.finish();
    }

    assertThat(seen).containsExactlyElementsOf(LongStream.range(0, 10_000).boxed().toList());
    assertThat(threads).containsExactly("test-worker");
  }

  @Test
  void rethrowsTheWorkersFailureAsItWasSoTheExportCanSayWhy() {
    var failure = new UncheckedIOException(new IOException("No space left on device"));
    var handoff = new Handoff<Integer>("test-worker", n -> {
      if (n == 1_500) {
        throw failure;
      }
    });
    boolean accepting = true;
    try (handoff) {
      for (int n = 0; n < 100_000 && accepting; n++) {
        accepting = handoff.accept(n);
      }
    } catch (UncheckedIOException e) {
      accepting = false; // thrown while handing a later batch over: the same failure
      assertThat(e).isSameAs(failure);
    }

    assertThat(accepting).isFalse();
    assertThatThrownBy(handoff::finish).isSameAs(failure);
  }

  @Test
  void chainedStagesPassTheLastStagesFailureBackToTheReader() {
    var failure = new IllegalStateException("the line could not be written");
    List<Integer> written = new ArrayList<>();
    var write = new Handoff<Integer>("test-write", n -> {
      if (n == 3_000) {
        throw failure;
      }
      written.add(n);
    });
    var check = new Handoff<Integer>("test-check", write::accept);

    assertThatThrownBy(() -> {
      for (int n = 0; n < 1_000_000; n++) {
        check.accept(n);
      }
      check.finish();
    }).isSameAs(failure);
    check.close();
    write.close();
    assertThat(written).hasSize(3_000).startsWith(0, 1, 2).endsWith(2_999);
  }
}
