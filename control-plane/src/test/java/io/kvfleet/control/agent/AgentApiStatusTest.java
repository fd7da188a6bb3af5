package io.kvfleet.control.agent;

import static org.assertj.core.api.Assertions.assertThat;

import io.kvfleet.control.KvfleetException;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.Test;

/** The local API's status comes from what went wrong (the exception's kind), never from its words. */
class AgentApiStatusTest {

  @Test
  void aFullBufferIsUnavailable() {
    assertThat(AgentApi.status(KvfleetException.bufferFull("prefill-0", 10))).isEqualTo(503);
  }

  @Test
  void aRegionTheNodeDoesNotHoldIsNotFound() {
    assertThat(AgentApi.status(KvfleetException.noSuchRegion("kv_data-0", "prefill-0"))).isEqualTo(404);
  }

  @Test
  void badInputIsBadInputWhateverItsWordsSay() {
    // A component named by the worker ends up in the message; it must not change the status.
    assertThat(AgentApi.status(KvfleetException.badInput(
        "bad registration request: waiting for Kafka: 2 addresses but 1 lengths"))).isEqualTo(400);
    assertThat(AgentApi.status(KvfleetException.badInput("no region is named like this"))).isEqualTo(400);
  }

  /** A worker's client takes a 400 for "do not retry": a region still moving bytes is a conflict to retry. */
  @Test
  void aRegionWithTransfersInFlightIsAConflictNotBadInput() {
    assertThat(AgentApi.status(KvfleetException.busy("kv-0 on ucx has 1 transfer batch(es) in flight")))
        .isEqualTo(409);
  }

  @Test
  void onlyARefusalByTheFullBufferCountsAsFull() {
    assertThat(KvfleetException.isBufferFull(KvfleetException.bufferFull("prefill-0", 10))).isTrue();
    assertThat(KvfleetException.isBufferFull(new CompletionException(KvfleetException.bufferFull("p", 1)))).isTrue();
    assertThat(KvfleetException.isBufferFull(KvfleetException.kafkaUnreachable("localhost:9092",
        new java.util.concurrent.TimeoutException("no answer")))).isFalse();
    assertThat(KvfleetException.isBufferFull(KvfleetException.badInput("waiting for Kafka"))).isFalse();
    assertThat(KvfleetException.isBufferFull(new IllegalStateException("full"))).isFalse();
  }
}
