package io.kvfleet.events.trust;

import static java.util.Objects.requireNonNull;

import io.kvfleet.events.Envelope;
import io.kvfleet.events.FleetEvent;
import io.kvfleet.events.ReasonCodes;
import io.kvfleet.events.TransferCompleted;
import io.kvfleet.events.TransferFailed;
import java.util.Optional;
import java.util.function.Function;

/**
 * Decides whether a record's writer had the right to say it: the signature checks against the trust file, the
 * key may write as the record's producer, its role may write the type ({@link Rights}), it speaks for the node
 * the record is about, and a transfer's ending comes from the node the transfer was dispatched to (or a
 * coordinator, for a failure). Pure; one per reader. Without a trust file every record is trusted.
 */
public final class Verifier {
  private static final Verdict UNCHECKED = new Verdict.Trusted(Optional.empty());
  private final Optional<TrustFile> trust;

  private Verifier(Optional<TrustFile> trust) {
    this.trust = requireNonNull(trust, "trust must not be null");
  }

  /** A verifier against {@code trust}. */
  public static Verifier against(TrustFile trust) {
    return new Verifier(Optional.of(trust));
  }

  /** A verifier that trusts everything: signing is off. */
  public static Verifier off() {
    return new Verifier(Optional.empty());
  }

  /** A verifier for {@code signing}: against its trust file, or off without one. */
  public static Verifier of(Signing signing) {
    return new Verifier(signing.trust());
  }

  /** Whether this verifier refuses anything at all. */
  public boolean isOn() {
    return trust.isPresent();
  }

  /**
   * The verdict on {@code raw} (the record's value as read), decoded as {@code envelope}; {@code dispatchedTo}
   * tells, for a transfer the reader knows, the node it was requested of and whether it was dispatched.
   */
  public Verdict check(byte[] raw, Envelope envelope, Function<String, Optional<Dispatch>> dispatchedTo) {
    if (trust.isEmpty()) {
      return UNCHECKED; // the unsigned fleet's hot path: nothing allocated, nothing read
    }
    Optional<SignedDocument.Parts> parts = SignedDocument.split(raw);
    if (parts.isEmpty()) {
      return refused(ReasonCodes.EVENT_UNSIGNED, envelope, "no keyid and signature members");
    }
    SignedDocument.Parts p = parts.get();
    return switch (trust.get().check(p.keyId(), p.signedBytes(), p.signature())) {
      case KeyCheck.UnknownKey u -> refused(ReasonCodes.EVENT_UNKNOWN_KEY, envelope, "key '" + u.keyId() + "'");
      case KeyCheck.BadSignature b -> refused(ReasonCodes.EVENT_BAD_SIGNATURE, envelope, "key '" + b.keyId() + "'");
      case KeyCheck.Verified v -> rights(v.binding(), envelope, dispatchedTo);
    };
  }

  /**
   * The verdict on {@code raw}, a record that does not decode, that says it is a {@code wireType} written by
   * {@code producer}: whether its exact bytes are signed by a key the trust file lists that may write as that
   * producer and whose role may write that type. Nothing else of it can be read, so nothing else is checked; a
   * reader answers such a record (a rejection for a request it cannot read) only when this trusts it.
   */
  public Verdict checkUndecoded(byte[] raw, String wireType, String producer) {
    if (trust.isEmpty()) {
      return UNCHECKED;
    }
    String what = wireType + " (does not decode) from '" + producer + "': ";
    Optional<SignedDocument.Parts> parts = SignedDocument.split(raw);
    if (parts.isEmpty()) {
      return new Verdict.Refused(ReasonCodes.EVENT_UNSIGNED, what + "no keyid and signature members");
    }
    SignedDocument.Parts p = parts.get();
    return switch (trust.get().check(p.keyId(), p.signedBytes(), p.signature())) {
      case KeyCheck.UnknownKey u -> new Verdict.Refused(ReasonCodes.EVENT_UNKNOWN_KEY, what + "key '" + u.keyId() + "'");
      case KeyCheck.BadSignature b ->
          new Verdict.Refused(ReasonCodes.EVENT_BAD_SIGNATURE, what + "key '" + b.keyId() + "'");
      case KeyCheck.Verified v when !v.binding().mayProduceAs(producer) -> new Verdict.Refused(
          ReasonCodes.EVENT_WRONG_PRODUCER, what + "key '" + v.binding().id() + "' may not write as '" + producer + "'");
      case KeyCheck.Verified v when !Rights.mayWrite(v.binding().role(), wireType) -> new Verdict.Refused(
          ReasonCodes.EVENT_WRONG_ROLE, what + "a " + v.binding().role().wireName() + " key ('" + v.binding().id()
              + "') may not write " + wireType);
      case KeyCheck.Verified v -> new Verdict.Trusted(Optional.of(v.binding()));
    };
  }

  private static Verdict rights(KeyBinding key, Envelope envelope, Function<String, Optional<Dispatch>> dispatchedTo) {
    FleetEvent event = envelope.data();
    if (!key.mayProduceAs(envelope.producer())) {
      return refused(ReasonCodes.EVENT_WRONG_PRODUCER, envelope, "key '" + key.id() + "' may not write as '"
          + envelope.producer() + "'");
    }
    if (!Rights.mayWrite(key.role(), event)) {
      return refused(ReasonCodes.EVENT_WRONG_ROLE, envelope, "a " + key.role().wireName() + " key ('" + key.id()
          + "') may not write " + envelope.type());
    }
    if (key.role() == Role.NODE && Rights.speaksForItsNode(event) && !key.maySpeakFor(event.nodeId())) {
      return refused(ReasonCodes.EVENT_WRONG_NODE, envelope, "key '" + key.id() + "' may not speak for node '"
          + event.nodeId() + "'");
    }
    if (key.role() == Role.NODE && (event instanceof TransferCompleted || event instanceof TransferFailed)) {
      Optional<Dispatch> transfer = dispatchedTo.apply(event.subject());
      if (transfer.isPresent()) {
        return ending(key, envelope, transfer.get());
      }
    }
    return new Verdict.Trusted(Optional.of(key));
  }

  /**
   * A node key's ending of a transfer the reader knows: only of one dispatched to its node. The dispatch and the
   * ending share the transfers topic and the source's Kafka key, so a reader folding in order has read the dispatch
   * first; an ending of a transfer still requested would otherwise be its one ending, before the coordinator's answer.
   */
  private static Verdict ending(KeyBinding key, Envelope envelope, Dispatch transfer) {
    if (!key.maySpeakFor(transfer.sourceNode())) {
      return refused(ReasonCodes.EVENT_WRONG_NODE, envelope, "key '" + key.id() + "' may not end a transfer"
          + " dispatched to '" + transfer.sourceNode() + "'");
    }
    if (!transfer.dispatched()) {
      return refused(ReasonCodes.EVENT_NOT_DISPATCHED, envelope, "key '" + key.id() + "' may not end a transfer"
          + " that was never dispatched");
    }
    return new Verdict.Trusted(Optional.of(key));
  }

  private static Verdict refused(String reason, Envelope envelope, String why) {
    return new Verdict.Refused(reason, envelope.type() + " " + envelope.id() + " from '"
        + envelope.producer() + "': " + why);
  }
}
