package io.kvfleet.control.coordinator;

import static io.kvfleet.control.coordinator.TransferDeciderTest.range;
import static io.kvfleet.control.coordinator.TransferDeciderTest.request;
import static org.assertj.core.api.Assertions.assertThat;

import io.kvfleet.events.Envelope;
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
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Red team (att). docs/SECURITY.md: only a {@code router} key may write {@code transfer.requested}, and "a forged
 * request is not answered (a rejection would itself be the forger's word in the log)". Two ways around both, each
 * ending in a {@code transfer.rejected} the coordinator signs with its own key for a transfer id the forger chose
 * (for a live transfer: DUPLICATE_TRANSFER, which the fold ignores but any reader of the log that takes a
 * rejection for the transfer's answer, e.g. bench TerminalReader and chaos Tally, reads as its end):
 * <ol>
 *   <li>a <b>node</b> key writes {@code transfer.requested} with {@code "schemaversion":99}: it decodes as an
 *       OpaqueEvent, which Rights.mayWrite lets any role write (Rights.java, {@code case OpaqueEvent e -> true}),
 *       and UnreadableRequest answers it SCHEMA_UNSUPPORTED;</li>
 *   <li>a writer with <b>no key</b> writes a malformed {@code transfer.requested}: Coordinator.fold asks the
 *       verifier only of a {@code Decoded.Event} (Coordinator.java, {@code refusal(e)}), so a
 *       {@code Decoded.Malformed} reaches {@code deciding.unreadable} unchecked and is answered INVALID_REQUEST.</li>
 * </ol>
 */
class UnauthorisedRequestAnswerAttackTest {
  private static final EventCodec CODEC = new EventCodec();
  private static final int PARTITIONS = 3;
  private final FleetKey decode = FleetKey.generate("decode-0");
  private final FleetKey router = FleetKey.generate("router-0");
  private final Verifier verifier = Verifier.against(TrustFile.of(
      new KeyBinding("decode-0", decode.publicKey(), Role.NODE, Set.of("decode-0"), Set.of("decode-0")),
      new KeyBinding("router-0", router.publicKey(), Role.ROUTER, Set.of("router-0"), Set.of())));
  private final Deciding deciding = new Deciding("coordinator-0", verifier); // Coordinator.withSigning's
  private final FleetState state = new FleetState();
  private final Ownership whole = Ownership.whole(PARTITIONS);

  private static String requestDocument(String producer, int schemaVersion, String data) {
    return "{\"specversion\":\"1.0\",\"id\":\"f-1\",\"source\":\"/kvfleet/" + producer
        + "\",\"type\":\"io.kvfleet.transfer.requested\",\"subject\":\"t-live\",\"time\":\"" + Instant.now()
        + "\",\"datacontenttype\":\"application/json\",\"producer\":\"" + producer
        + "\",\"epoch\":\"1\",\"sequence\":\"1\",\"schemaversion\":" + schemaVersion + ",\"data\":" + data + "}";
  }

  @Test
  void aNodeKeyMayNotWriteATransferRequestByBumpingItsSchemaVersion() {
    byte[] raw = SignedDocument.sign(requestDocument("decode-0", 99,
        "{\"transferId\":\"t-live\",\"sourceNode\":\"decode-0\"}").getBytes(StandardCharsets.UTF_8), decode);
    var decoded = CODEC.decode(raw);
    assertThat(decoded).isInstanceOf(Decoded.Event.class);
    var verdict = verifier.check(raw, ((Decoded.Event) decoded).envelope(), id -> Optional.empty());

    assertThat(UnreadableRequest.answer(decoded)).as("the coordinator would answer it").isPresent();
    assertThat(verdict).as("a node key writing transfer.requested (schema 99)").isInstanceOf(Verdict.Refused.class);
  }

  @Test
  void anUnsignedMalformedRequestForALiveTransferIsNotAnsweredInASignedFleet() {
    var live = request("t-live", 1, 1, range(0, 0, 4096));
    state.apply(new Envelope("e-1", "router-0", 1, 1, Instant.now(), "", live));
    byte[] raw = requestDocument("anyone", 1, "{\"transferId\":\"t-live\",\"sourceNode\":\"prefill-0\"}")
        .getBytes(StandardCharsets.UTF_8);
    var decoded = CODEC.decode(raw);
    assertThat(decoded).as("no verifier is asked of it in Coordinator.fold").isInstanceOf(Decoded.Malformed.class);
    assertThat(verifier.isOn()).isTrue();

    // Coordinator.fold, with a trust file, on this unsigned record: deciding.unreadable(...).forEach(this::act)
    var answers = deciding.unreadable(state, decoded, Ownership.partitionOf("prefill-0", PARTITIONS), true, whole);

    assertThat(answers).as("the coordinator's signed answers to an unsigned record").isEmpty();
  }
}
