package io.kvfleet.control.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.kvfleet.control.kafka.DeadLetters;
import io.kvfleet.events.ByteRange;
import io.kvfleet.events.Envelope;
import io.kvfleet.events.FleetEvent;
import io.kvfleet.events.ReasonCodes;
import io.kvfleet.events.Topics;
import io.kvfleet.events.TransferCompleted;
import io.kvfleet.events.TransferDispatched;
import io.kvfleet.events.TransferOp;
import io.kvfleet.events.TransferRequested;
import io.kvfleet.events.codec.Decoded;
import io.kvfleet.events.trust.Verifier;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.record.TimestampType;
import org.junit.jupiter.api.Test;

/**
 * What {@code request} takes for the fleet's answer. An outsider who saw the id coming wrote a completion before the
 * request and the command exited 0; another copied the request into the dead-letter topic with a made-up reason
 * and the command reported a refusal of a transfer that then completed.
 */
class RequestWatchTest {
  private static final long NOW = 1_000_000;
  private final ByteArrayOutputStream printed = new ByteArrayOutputStream();
  private final RequestWatch watch = new RequestWatch("t-1", Verifier.off(),
      new PrintStream(printed, true, StandardCharsets.UTF_8));
  private final Envelope request = envelope("router-cli", new TransferRequested("t-1", "prefill-0", 1, "kv", "decode-0",
      2, "kv", TransferOp.WRITE, List.of(new ByteRange(0, 0, 4096)), NOW + 30_000, true));
  private final TransferCompleted completed = new TransferCompleted("t-1", "prefill-0", 4096, 10, "forged", "");

  @Test
  void anEndingBeforeTheRequestOrInAnotherPartitionOrWithoutItsDispatchIsNotTheFleetsAnswer() {
    watch.read(record(Topics.TRANSFERS, 0, 4, envelope("outsider", completed)), NOW);
    watch.read(record(Topics.TRANSFERS, 1, 2, request), NOW); // a copy of the request, read before the request
    watch.sent(request.id(), 0, 5, NOW);
    watch.read(record(Topics.TRANSFERS, 0, 5, request), NOW);
    watch.read(record(Topics.TRANSFERS, 1, 9, envelope("outsider", completed)), NOW);
    watch.read(record(Topics.TRANSFERS, 0, 6, envelope("outsider", completed)), NOW); // no dispatch of it yet
    watch.read(record(Topics.TRANSFERS, 0, 7, dispatch("an-earlier-request")), NOW);
    watch.read(record(Topics.TRANSFERS, 0, 8, envelope("outsider", completed)), NOW);

    assertThat(watch.outcome(NOW)).isEmpty();
    assertThat(printed.toString(StandardCharsets.UTF_8)).contains("IGNORED (not after the request in its partition",
        "IGNORED (a completion before any dispatch of this request)", "IGNORED (a dispatch of another request)");

    watch.read(record(Topics.TRANSFERS, 0, 9, dispatch(request.id())), NOW);
    watch.read(record(Topics.TRANSFERS, 0, 10, envelope("prefill-0", completed)), NOW);

    assertThat(watch.outcome(NOW)).get().isEqualTo(new RequestWatch.Outcome.Ended(completed));
  }

  @Test
  void aDeadLetterCopyAtTheRequestsPlaceIsARefusalOnceNoCoordinatorAnsweredInTheGrace() {
    // Read before the publish returned where Kafka put the request.
    watch.read(deadLetter(request, 0, 5, ReasonCodes.EVENT_UNSIGNED + ": no signature"), NOW);
    watch.read(deadLetter(request, 1, 5, "a copy's place"), NOW);
    watch.sent(request.id(), 0, 5, NOW);

    assertThat(watch.outcome(NOW + 100)).as("within the grace").isEmpty();
    assertThat(watch.outcome(NOW + RequestWatch.REFUSAL_GRACE.toMillis()))
        .get().isEqualTo(new RequestWatch.Outcome.Refused(ReasonCodes.EVENT_UNSIGNED + ": no signature"));
  }

  @Test
  void aDeadLetterCopyOfARequestACoordinatorAnsweredIsNotARefusal() {
    watch.sent(request.id(), 0, 5, NOW);
    watch.read(record(Topics.TRANSFERS, 0, 5, request), NOW);
    watch.read(deadLetter(request, 0, 5, "made up"), NOW);
    watch.read(record(Topics.TRANSFERS, 0, 6, dispatch(request.id())), NOW);

    assertThat(watch.outcome(NOW + 10 * RequestWatch.REFUSAL_GRACE.toMillis())).isEmpty();
  }

  private Envelope dispatch(String requestEventId) {
    var region = new io.kvfleet.events.RegionSpec("kv", io.kvfleet.events.RegionKind.KV,
        io.kvfleet.events.MemoryType.DRAM, -1, 0x1000, 4096, 0, "kv", 0);
    var order = new io.kvfleet.events.DispatchedOrder((TransferRequested) request.data(), requestEventId, region,
        region, java.util.Map.of(), "", List.of());
    return envelope("coordinator-0", new TransferDispatched("t-1", "prefill-0", "coordinator-0", 1, order, "", ""));
  }

  private static Envelope envelope(String producer, FleetEvent event) {
    return Envelope.of(producer, 1, 1, Instant.ofEpochMilli(NOW), "", event);
  }

  private static ConsumerRecord<String, Decoded> record(String topic, int partition, long offset, Envelope e) {
    return new ConsumerRecord<>(topic, partition, offset, NOW, TimestampType.CREATE_TIME, 0, 0, "prefill-0",
        new Decoded.Event(e), new RecordHeaders(), Optional.empty());
  }

  private static ConsumerRecord<String, Decoded> deadLetter(Envelope e, int partition, long offset, String reason) {
    var headers = new RecordHeaders();
    headers.add(DeadLetters.TOPIC, Topics.TRANSFERS.getBytes(StandardCharsets.UTF_8));
    headers.add(DeadLetters.PARTITION, Integer.toString(partition).getBytes(StandardCharsets.UTF_8));
    headers.add(DeadLetters.OFFSET, Long.toString(offset).getBytes(StandardCharsets.UTF_8));
    headers.add(DeadLetters.REASON, reason.getBytes(StandardCharsets.UTF_8));
    return new ConsumerRecord<>(Topics.DEADLETTER, 0, offset, NOW, TimestampType.CREATE_TIME, 0, 0, "k",
        new Decoded.Event(e), headers, Optional.empty());
  }
}
