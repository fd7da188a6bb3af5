package io.kvfleet.control.agent;

import static org.assertj.core.api.Assertions.assertThat;

import io.kvfleet.events.ByteRange;
import io.kvfleet.events.Envelope;
import io.kvfleet.events.PeerHeartbeat;
import io.kvfleet.events.ReasonCodes;
import io.kvfleet.events.TransferCompleted;
import io.kvfleet.events.TransferDispatched;
import io.kvfleet.events.TransferFailed;
import io.kvfleet.events.TransferOp;
import io.kvfleet.events.TransferRejected;
import io.kvfleet.events.TransferRequested;
import io.kvfleet.events.TransferTimedOut;
import io.kvfleet.events.codec.Decoded;
import io.kvfleet.events.codec.EventCodec;
import io.kvfleet.events.trust.FleetKey;
import io.kvfleet.events.trust.KeyBinding;
import io.kvfleet.events.trust.Role;
import io.kvfleet.events.trust.SignedDocument;
import io.kvfleet.events.trust.Signing;
import io.kvfleet.events.trust.TrustFile;
import io.kvfleet.events.trust.Verifier;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The agent's order reader decodes the dispatches of its partition, notes in log order the endings
 * of its node's transfers that others wrote (and the requests that start an id anew), and skips
 * the other records undecoded.
 */
class OrderLogTest {
  private static final Instant T0 = Instant.parse("2026-12-07T06:00:00Z");
  private final EventCodec codec = new EventCodec();
  private final FleetEndings endings = new FleetEndings();
  private final OrderLog.Orders reader = new OrderLog.Orders("prefill-0", Verifier.of(Signing.off()), endings);

  @Test
  void decodesADispatch() {
    var dispatch = new TransferDispatched("t-1", "prefill-0", "coordinator-0");

    var read = reader.deserialize("kvfleet.transfers", encode(dispatch));

    assertThat(read).isInstanceOfSatisfying(Decoded.Event.class, e -> assertThat(e.envelope().data()).isEqualTo(dispatch));
  }

  @Test
  void skipsEveryOtherRecordAndATombstone() {
    assertThat(reader.deserialize("kvfleet.transfers", encode(new TransferCompleted("t-1", "prefill-0", 1, 1,
        "host/memcpy", "")))).isNull();
    assertThat(reader.deserialize("kvfleet.transfers", encode(new PeerHeartbeat("prefill-0", 1, 3_000)))).isNull();
    assertThat(reader.deserialize("kvfleet.transfers", null)).isNull();
    assertThat(endings.any()).isFalse();
  }

  @Test
  void skipsByTheTypeHeaderWithoutReadingTheBytes() {
    var completed = header("io.kvfleet.transfer.completed");
    var dispatch = new TransferDispatched("t-1", "prefill-0", "coordinator-0");

    // A dispatch's bytes under a header that names another type are skipped unread, never run.
    assertThat(reader.deserialize("kvfleet.transfers", completed, encode(dispatch))).isNull();
  }

  @Test
  void refusesADispatchHeaderOverAnotherDocument() {
    var read = reader.deserialize("kvfleet.transfers", header("io.kvfleet.transfer.dispatched"),
        encode(new TransferCompleted("t-1", "prefill-0", 1, 1, "host/memcpy", "")));

    assertThat(read).isInstanceOfSatisfying(Decoded.Malformed.class,
        m -> assertThat(m.reason()).startsWith("type header mismatch"));
  }

  @Test
  void notesTheFleetsEndingsOfThisNodesTransfersWithWhoWroteThem() {
    assertThat(reader.deserialize("kvfleet.transfers", header("io.kvfleet.transfer.failed"),
        encode(new TransferFailed("t-1", "prefill-0", ReasonCodes.PEER_LOST, 0, "decode-0 lost")))).isNull();
    reader.deserialize("kvfleet.transfers", encode(new TransferTimedOut("t-2", "prefill-0", 1_000)));
    reader.deserialize("kvfleet.transfers", encode(new TransferRejected("t-3", "prefill-0",
        ReasonCodes.PEER_NOT_ALIVE, "")));

    assertThat(endings.of("t-1", "")).contains("transfer.failed PEER_LOST by coordinator-0");
    assertThat(endings.of("t-2", "")).contains("transfer.timed_out by coordinator-0");
    assertThat(endings.of("t-3", "")).contains("transfer.rejected PEER_NOT_ALIVE by coordinator-0");
  }

  @Test
  void passesOverItsOwnOutcomesAndOtherNodesTransfers() {
    reader.deserialize("kvfleet.transfers", codec.encode(Envelope.of("prefill-0", 1, 1, Instant.now(), "",
        new TransferFailed("t-1", "prefill-0", ReasonCodes.TRANSPORT_ERROR, 0, "its own"))));
    reader.deserialize("kvfleet.transfers", encode(new TransferFailed("t-2", "prefill-1", ReasonCodes.PEER_LOST, 0, "")));

    assertThat(endings.any()).isFalse();
  }

  @Test
  void aLaterRequestForAnEndedIdStartsANewLifeTheEndedOneStaysEnded() {
    reader.deserialize("kvfleet.transfers", codec.encode(Envelope.of("coordinator-0", 1, 1, T0, "",
        new TransferTimedOut("t-1", "prefill-0", 1_000))));
    var again = Envelope.of("router-0", 1, 1, T0.plusSeconds(600), "", request("t-1"));

    assertThat(reader.deserialize("kvfleet.transfers", header("io.kvfleet.transfer.requested"), codec.encode(again)))
        .isNull();

    assertThat(endings.of("t-1", again.id())).as("the orders of the later request").isEmpty();
    assertThat(endings.of("t-1", "the-first-request")).as("the ended life's").isPresent();
  }

  @Test
  void inASignedFleetOnlyAnEndingItsWriterHadTheRightToSayIsNoted() {
    var coordinator = FleetKey.generate("coordinator-0");
    var decode = FleetKey.generate("decode-0");
    var signed = new OrderLog.Orders("prefill-0", Verifier.against(TrustFile.of(
        new KeyBinding("coordinator-0", coordinator.publicKey(), Role.COORDINATOR, Set.of("coordinator-0"), Set.of()),
        new KeyBinding("decode-0", decode.publicKey(), Role.NODE, Set.of("decode-0"), Set.of("decode-0")))), endings);
    var failure = new TransferFailed("t-1", "prefill-0", ReasonCodes.PEER_LOST, 0, "");

    signed.deserialize("kvfleet.transfers", encode(failure));
    signed.deserialize("kvfleet.transfers", SignedDocument.sign(codec.encode(Envelope.of("decode-0", 1, 1,
        Instant.now(), "", failure)), decode));
    assertThat(endings.of("t-1", "")).as("unsigned, or signed by a node that may not speak for prefill-0").isEmpty();

    signed.deserialize("kvfleet.transfers", SignedDocument.sign(encode(failure), coordinator));
    assertThat(endings.of("t-1", "")).contains("transfer.failed PEER_LOST by coordinator-0");
  }

  private static TransferRequested request(String id) {
    return new TransferRequested(id, "prefill-0", 1, "kv_data-0", "decode-0", 1, "kv_data-0", TransferOp.WRITE,
        List.of(new ByteRange(0, 0, 4096)), System.currentTimeMillis() + 30_000, false);
  }

  private static org.apache.kafka.common.header.Headers header(String type) {
    return new org.apache.kafka.common.header.internals.RecordHeaders()
        .add("ce_type", type.getBytes(java.nio.charset.StandardCharsets.UTF_8));
  }

  private byte[] encode(io.kvfleet.events.FleetEvent event) {
    return codec.encode(Envelope.of("coordinator-0", 1, 1, Instant.now(), "", event));
  }
}
