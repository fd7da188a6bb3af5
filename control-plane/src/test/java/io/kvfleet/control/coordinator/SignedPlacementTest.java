package io.kvfleet.control.coordinator;

import static io.kvfleet.control.coordinator.TransferDeciderTest.range;
import static io.kvfleet.control.coordinator.TransferDeciderTest.request;
import static org.assertj.core.api.Assertions.assertThat;

import io.kvfleet.events.Envelope;
import io.kvfleet.events.ReasonCodes;
import io.kvfleet.events.Topics;
import io.kvfleet.events.codec.Decoded;
import io.kvfleet.events.codec.EventCodec;
import io.kvfleet.events.state.FleetState;
import io.kvfleet.events.trust.FleetKey;
import io.kvfleet.events.trust.KeyBinding;
import io.kvfleet.events.trust.Role;
import io.kvfleet.events.trust.SignedDocument;
import io.kvfleet.events.trust.TrustFile;
import io.kvfleet.events.trust.Verdict;
import io.kvfleet.events.trust.Verifier;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** In a fleet that verifies: where a transfer record must be to be its writer's word, and what is answered. */
class SignedPlacementTest {
  private static final Instant NOW = Instant.parse("2026-11-30T12:00:00Z");
  private static final int PARTITIONS = 3;
  private final FleetKey router = FleetKey.generate("router-0");
  private final FleetKey decode = FleetKey.generate("decode-0");
  private final Verifier verifier = Verifier.against(TrustFile.of(
      new KeyBinding("router-0", router.publicKey(), Role.ROUTER, Set.of("router-0"), Set.of()),
      new KeyBinding("decode-0", decode.publicKey(), Role.NODE, Set.of("decode-0"), Set.of("decode-0"))));
  private final Ownership whole = Ownership.whole(PARTITIONS);
  private final int right = Ownership.partitionOf("prefill-0", PARTITIONS);
  private final int wrong = (right + 1) % PARTITIONS;
  private final Decoded request = new Decoded.Event(new Envelope("e-1", "router-0", 1, 7, NOW, "",
      request("t1", 1, 1, range(0, 0, 4096))));

  @Test
  void aTransferRecordIsInPlaceOnlyUnderItsSourceNodesKeyInThePartitionThatKeyMapsTo() {
    assertThat(whole.misplaced(Topics.TRANSFERS, right, "prefill-0", request)).isEmpty();
    assertThat(whole.misplaced(Topics.TRANSFERS, wrong, null, request)).hasValueSatisfying(
        why -> assertThat(why).contains("no key"));
    assertThat(whole.misplaced(Topics.TRANSFERS, right, null, request)).as("keyless, even in its partition")
        .isPresent();
    assertThat(whole.misplaced(Topics.TRANSFERS, wrong, "prefill-0", request)).isPresent();
    String other = keyIn(right, "prefill-0");
    assertThat(whole.misplaced(Topics.TRANSFERS, right, other, request)).as("keyed by another node")
        .hasValueSatisfying(why -> assertThat(why).contains("about node 'prefill-0'"));
    assertThat(whole.misplaced(Topics.NODES, wrong, null, request)).as("node topic: every coordinator reads all")
        .isEmpty();
    assertThat(Ownership.whole().misplaced(Topics.TRANSFERS, wrong, null, request)).as("partition count unknown")
        .isEmpty();
  }

  @Test
  void aSignedFleetDoesNotAnswerAMisroutedRequestAndAnUnsignedOneDoes() {
    var signed = new Deciding("coordinator-t", verifier);
    var unsigned = new Deciding("coordinator-t");
    var event = ((Decoded.Event) request).envelope().data();
    var state = new FleetState();
    state.apply(((Decoded.Event) request).envelope());
    assertThat(signed.read(state, event, wrong, true, whole, NOW)).isEmpty();
    assertThat(unsigned.read(state, event, wrong, true, whole, NOW)).singleElement()
        .isInstanceOfSatisfying(Decision.Reject.class, r -> assertThat(r.event().reason()).isEqualTo(
            ReasonCodes.MISROUTED));
  }

  @Test
  void aMalformedRequestIsAnsweredInASignedFleetOnlyWhenARouterSignedItsBytes() {
    byte[] doc = ("{\"specversion\":\"1.0\",\"id\":\"f-1\",\"source\":\"/kvfleet/router-0\","
        + "\"type\":\"io.kvfleet.transfer.requested\",\"subject\":\"t-bad\",\"time\":\"" + NOW
        + "\",\"datacontenttype\":\"application/json\",\"producer\":\"router-0\",\"epoch\":\"1\",\"sequence\":\"1\","
        + "\"schemaversion\":1,\"data\":{\"transferId\":\"t-bad\",\"sourceNode\":\"prefill-0\"}}")
        .getBytes(StandardCharsets.UTF_8);
    var codec = new EventCodec();
    var byRouter = (Decoded.Malformed) codec.decode(SignedDocument.sign(doc, router));
    var byNode = (Decoded.Malformed) codec.decode(SignedDocument.sign(doc, decode));
    assertThat(UnreadableRequest.verdict(verifier, byRouter)).isInstanceOf(Verdict.Trusted.class);
    assertThat(UnreadableRequest.verdict(verifier, byNode)).isInstanceOfSatisfying(Verdict.Refused.class,
        r -> assertThat(r.reason()).isEqualTo(ReasonCodes.EVENT_WRONG_PRODUCER));

    var answers = new Deciding("coordinator-t", verifier).unreadable(new FleetState(), byRouter, right, true, whole);
    assertThat(answers).singleElement().isInstanceOfSatisfying(Decision.Reject.class,
        r -> assertThat(r.event().reason()).isEqualTo(ReasonCodes.INVALID_REQUEST));
    assertThat(new Deciding("coordinator-t", verifier).unreadable(new FleetState(), byRouter, wrong, true, whole))
        .as("answered only in the partition it belongs in").isEmpty();
    assertThat(new Deciding("coordinator-t", verifier).unreadable(new FleetState(), byNode, right, true, whole))
        .isEmpty();
  }

  /** A key other than {@code not} that murmur2 maps to {@code partition}. */
  private static String keyIn(int partition, String not) {
    for (int i = 0; ; i++) {
      String key = "node-" + i;
      if (!key.equals(not) && Ownership.partitionOf(key, PARTITIONS) == partition) {
        return key;
      }
    }
  }
}
