package io.kvfleet.events.trust;

import static org.assertj.core.api.Assertions.assertThat;

import io.kvfleet.events.Envelope;
import io.kvfleet.events.EventType;
import io.kvfleet.events.FleetEvent;
import io.kvfleet.events.PeerHeartbeat;
import io.kvfleet.events.PeerLost;
import io.kvfleet.events.ReasonCodes;
import io.kvfleet.events.Samples;
import io.kvfleet.events.TransferCompleted;
import io.kvfleet.events.TransferFailed;
import io.kvfleet.events.codec.EventCodec;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class VerifierTest {
  private static final EventCodec CODEC = new EventCodec();
  private static final Function<String, Optional<Dispatch>> UNKNOWN = id -> Optional.empty();
  private final FleetKey prefill = FleetKey.generate("prefill-0");
  private final FleetKey decode = FleetKey.generate("decode-0");
  private final FleetKey coordinator = FleetKey.generate("coordinator-0");
  private final FleetKey router = FleetKey.generate("router-0");
  private final Verifier verifier = Verifier.against(TrustFile.of(
      node(prefill), node(decode),
      new KeyBinding("coordinator-0", coordinator.publicKey(), Role.COORDINATOR, Set.of("coordinator-0"), Set.of()),
      new KeyBinding("router-0", router.publicKey(), Role.ROUTER, Set.of("router-0"), Set.of())));

  private static KeyBinding node(FleetKey key) {
    return new KeyBinding(key.keyId(), key.publicKey(), Role.NODE, Set.of(key.keyId()), Set.of(key.keyId()));
  }

  private static Envelope from(String producer, FleetEvent event) {
    return new Envelope("evt-1", producer, 3, 7, Samples.T0, "", event);
  }

  private Verdict check(Envelope envelope, byte[] raw, Function<String, Optional<Dispatch>> dispatchedTo) {
    return verifier.check(raw, envelope, dispatchedTo);
  }

  private Verdict signedBy(FleetKey key, Envelope envelope) {
    return check(envelope, SignedDocument.sign(CODEC.encode(envelope), key), UNKNOWN);
  }

  private static String reason(Verdict verdict) {
    return verdict instanceof Verdict.Refused r ? r.reason() : "TRUSTED";
  }

  @ParameterizedTest
  @EnumSource(EventType.class)
  void trustsEveryTypeFromTheRoleThatWritesIt(EventType type) {
    FleetEvent event = Samples.of(type);
    FleetKey key = switch (type) {
      case PEER_LOST, TRANSFER_DISPATCHED, TRANSFER_REJECTED, TRANSFER_TIMED_OUT -> coordinator;
      case TRANSFER_REQUESTED -> router;
      default -> prefill;
    };
    assertThat(reason(signedBy(key, from(key.keyId(), event)))).isEqualTo("TRUSTED");
  }

  @Test
  void refusesAnUnsignedEvent() {
    var envelope = from("prefill-0", new PeerHeartbeat("prefill-0", 3, 3_000));
    assertThat(reason(check(envelope, CODEC.encode(envelope), UNKNOWN))).isEqualTo(ReasonCodes.EVENT_UNSIGNED);
  }

  @Test
  void refusesAKeyTheTrustFileDoesNotList() {
    var envelope = from("evil-0", new PeerHeartbeat("evil-0", 3, 3_000));
    assertThat(reason(signedBy(FleetKey.generate("evil-0"), envelope))).isEqualTo(ReasonCodes.EVENT_UNKNOWN_KEY);
  }

  @Test
  void refusesAForgedKeyUnderARealKeysId() {
    var envelope = from("prefill-0", new PeerHeartbeat("prefill-0", 3, 3_000));
    assertThat(reason(signedBy(FleetKey.generate("prefill-0"), envelope)))
        .isEqualTo(ReasonCodes.EVENT_BAD_SIGNATURE);
  }

  @Test
  void refusesARealSignatureReplayedOnAChangedDocument() {
    var real = from("prefill-0", new PeerHeartbeat("prefill-0", 3, 3_000));
    String signed = new String(SignedDocument.sign(CODEC.encode(real), prefill), StandardCharsets.UTF_8);
    String changed = signed.replace("\"sequence\":\"7\"", "\"sequence\":\"9999\"");
    var forged = new Envelope("evt-1", "prefill-0", 3, 9999, Samples.T0, "", real.data());
    assertThat(changed).isNotEqualTo(signed);
    assertThat(reason(check(forged, changed.getBytes(StandardCharsets.UTF_8), UNKNOWN)))
        .isEqualTo(ReasonCodes.EVENT_BAD_SIGNATURE);
  }

  @Test
  void refusesANodeKeyWritingAsAnotherProducer() {
    var envelope = from("coordinator-0", new PeerHeartbeat("prefill-0", 3, 3_000));
    assertThat(reason(signedBy(prefill, envelope))).isEqualTo(ReasonCodes.EVENT_WRONG_PRODUCER);
  }

  @Test
  void refusesANodeKeySpeakingForAnotherNode() {
    var envelope = from("decode-0", new PeerHeartbeat("prefill-0", 3, 3_000));
    assertThat(reason(signedBy(decode, envelope))).isEqualTo(ReasonCodes.EVENT_WRONG_NODE);
  }

  @Test
  void refusesAPeerLostFromANodeOrRouterKey() {
    var lost = new PeerLost("prefill-0", 3, ReasonCodes.LEASE_EXPIRED, 0);
    assertThat(reason(signedBy(decode, from("decode-0", lost)))).isEqualTo(ReasonCodes.EVENT_WRONG_ROLE);
    assertThat(reason(signedBy(router, from("router-0", lost)))).isEqualTo(ReasonCodes.EVENT_WRONG_ROLE);
  }

  @Test
  void refusesADispatchOrRequestFromAKeyOfAnotherRole() {
    assertThat(reason(signedBy(router, from("router-0", Samples.of(EventType.TRANSFER_DISPATCHED)))))
        .isEqualTo(ReasonCodes.EVENT_WRONG_ROLE);
    assertThat(reason(signedBy(coordinator, from("coordinator-0", Samples.of(EventType.TRANSFER_REQUESTED)))))
        .isEqualTo(ReasonCodes.EVENT_WRONG_ROLE);
  }

  @Test
  void refusesACompletionFromANodeTheTransferWasNotDispatchedTo() {
    // decode-0's own key, claiming its own node, for a transfer the log dispatched to prefill-0.
    var completed = new TransferCompleted("xfer-1", "decode-0", 1, 1, "host", "", List.of());
    var envelope = from("decode-0", completed);
    Verdict verdict = check(envelope, SignedDocument.sign(CODEC.encode(envelope), decode),
        id -> id.equals("xfer-1") ? Optional.of(new Dispatch("prefill-0", true)) : Optional.empty());
    assertThat(reason(verdict)).isEqualTo(ReasonCodes.EVENT_WRONG_NODE);
  }

  @Test
  void refusesTheSourceNodesEndingOfATransferNeverDispatchedButTrustsItOnceDispatched() {
    var completed = from("prefill-0", new TransferCompleted("xfer-1", "prefill-0", 1, 1, "host", "", List.of()));
    var failed = from("prefill-0", new TransferFailed("xfer-1", "prefill-0", ReasonCodes.TRANSPORT_ERROR, 0, ""));
    for (Envelope ending : List.of(completed, failed)) {
      byte[] raw = SignedDocument.sign(CODEC.encode(ending), prefill);
      assertThat(reason(check(ending, raw, id -> Optional.of(new Dispatch("prefill-0", false)))))
          .as("%s of a transfer still requested", ending.type()).isEqualTo(ReasonCodes.EVENT_NOT_DISPATCHED);
      assertThat(reason(check(ending, raw, id -> Optional.of(new Dispatch("prefill-0", true)))))
          .as("%s of a transfer dispatched to prefill-0", ending.type()).isEqualTo("TRUSTED");
    }
  }

  @Test
  void refusesACompletionFromACoordinatorButTrustsItsFailure() {
    var completed = from("coordinator-0", new TransferCompleted("xfer-1", "prefill-0", 1, 1, "host", "", List.of()));
    var failed = from("coordinator-0", new TransferFailed("xfer-1", "prefill-0", ReasonCodes.PEER_LOST, 0, ""));
    assertThat(reason(signedBy(coordinator, completed))).isEqualTo(ReasonCodes.EVENT_WRONG_ROLE);
    assertThat(reason(signedBy(coordinator, failed))).isEqualTo("TRUSTED");
  }

  @Test
  void trustsEverythingWhenOff() {
    var envelope = from("evil-0", new PeerLost("prefill-0", 3, ReasonCodes.LEASE_EXPIRED, 0));
    assertThat(Verifier.off().check(CODEC.encode(envelope), envelope, UNKNOWN)).isInstanceOf(Verdict.Trusted.class);
  }

  @Test
  void rightsFollowTheWireTypeOfAnEventReadAsOpaqueData() {
    // A known type at a newer schema version decodes as an OpaqueEvent: it needs its type's role all the same.
    var bumped = from("decode-0", new io.kvfleet.events.OpaqueEvent("decode-0", "t-1",
        EventType.TRANSFER_REQUESTED.wireName(), 99, "{\"transferId\":\"t-1\",\"sourceNode\":\"decode-0\"}"));
    assertThat(reason(signedBy(decode, bumped))).isEqualTo(ReasonCodes.EVENT_WRONG_ROLE);
    var routers = from("router-0", new io.kvfleet.events.OpaqueEvent("", "t-1",
        EventType.TRANSFER_REQUESTED.wireName(), 99, "{}"));
    assertThat(reason(signedBy(router, routers))).isEqualTo("TRUSTED");
    var unknown = from("decode-0", new io.kvfleet.events.OpaqueEvent("decode-0", "x", "io.kvfleet.future.thing", 1,
        "{}"));
    assertThat(reason(signedBy(decode, unknown))).as("a type this build does not know").isEqualTo("TRUSTED");
  }

  @Test
  void checksTheExactBytesOfARecordThatDoesNotDecode() {
    byte[] doc = "{\"type\":\"io.kvfleet.transfer.requested\",\"producer\":\"router-0\",\"data\":{}}"
        .getBytes(StandardCharsets.UTF_8);
    String requested = EventType.TRANSFER_REQUESTED.wireName();
    assertThat(reason(verifier.checkUndecoded(doc, requested, "router-0"))).isEqualTo(ReasonCodes.EVENT_UNSIGNED);
    assertThat(reason(verifier.checkUndecoded(SignedDocument.sign(doc, router), requested, "router-0")))
        .isEqualTo("TRUSTED");
    assertThat(reason(verifier.checkUndecoded(SignedDocument.sign(doc, router), requested, "router-1")))
        .isEqualTo(ReasonCodes.EVENT_WRONG_PRODUCER);
    byte[] bySomeNode = SignedDocument.sign(doc, decode);
    assertThat(reason(verifier.checkUndecoded(bySomeNode, requested, "decode-0")))
        .isEqualTo(ReasonCodes.EVENT_WRONG_ROLE);
    byte[] changed = SignedDocument.sign(doc, router);
    changed[3]++;
    assertThat(reason(verifier.checkUndecoded(changed, requested, "router-0")))
        .isEqualTo(ReasonCodes.EVENT_BAD_SIGNATURE);
    assertThat(Verifier.off().checkUndecoded(doc, requested, "x")).isInstanceOf(Verdict.Trusted.class);
  }
}
