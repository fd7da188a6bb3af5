package io.kvfleet.events;

import java.util.Arrays;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The stable wire names and schema versions of the events. Never derived from Java class names:
 * renaming a class must not change the log.
 */
public enum EventType {
  PEER_JOINED("io.kvfleet.peer.joined", 1, PeerJoined.class, Topics.NODES),
  PEER_HEARTBEAT("io.kvfleet.peer.heartbeat", 1, PeerHeartbeat.class, Topics.NODES),
  PEER_LOST("io.kvfleet.peer.lost", 1, PeerLost.class, Topics.NODES),
  PEER_LEFT("io.kvfleet.peer.left", 1, PeerLeft.class, Topics.NODES),
  REGION_REGISTERED("io.kvfleet.region.registered", 1, RegionRegistered.class, Topics.NODES),
  REGISTRATION_FAILED(
      "io.kvfleet.region.registration_failed", 1, RegistrationFailed.class, Topics.NODES),
  REGION_SKIPPED("io.kvfleet.region.skipped", 1, RegionSkipped.class, Topics.NODES),
  REGION_DEREGISTERED(
      "io.kvfleet.region.deregistered", 1, RegionDeregistered.class, Topics.NODES),
  REGISTRATION_DECISION(
      "io.kvfleet.region.decision", 1, RegistrationDecision.class, Topics.NODES),
  MODEL_LAYOUT_DECLARED("io.kvfleet.model.layout_declared", 1, ModelLayoutDeclared.class, Topics.NODES),
  TRANSFER_REQUESTED("io.kvfleet.transfer.requested", 2, TransferRequested.class, Topics.TRANSFERS),
  TRANSFER_REJECTED("io.kvfleet.transfer.rejected", 1, TransferRejected.class, Topics.TRANSFERS),
  TRANSFER_DISPATCHED(
      "io.kvfleet.transfer.dispatched", 2, TransferDispatched.class, Topics.TRANSFERS),
  TRANSFER_COMPLETED("io.kvfleet.transfer.completed", 2, TransferCompleted.class, Topics.TRANSFERS),
  TRANSFER_FAILED("io.kvfleet.transfer.failed", 1, TransferFailed.class, Topics.TRANSFERS),
  TRANSFER_TIMED_OUT("io.kvfleet.transfer.timed_out", 1, TransferTimedOut.class, Topics.TRANSFERS);

  private static final Map<String, EventType> BY_WIRE_NAME =
      Arrays.stream(values()).collect(Collectors.toUnmodifiableMap(t -> t.wireName, Function.identity()));

  private final String wireName;
  private final int schemaVersion;
  private final Class<? extends FleetEvent> javaType;
  private final String topic;

  EventType(String wireName, int schemaVersion, Class<? extends FleetEvent> javaType, String topic) {
    this.wireName = wireName;
    this.schemaVersion = schemaVersion;
    this.javaType = javaType;
    this.topic = topic;
  }

  /** The CloudEvents {@code type} attribute. */
  public String wireName() {
    return wireName;
  }

  /** The newest schema version this build writes and reads. */
  public int schemaVersion() {
    return schemaVersion;
  }

  public Class<? extends FleetEvent> javaType() {
    return javaType;
  }

  /** The topic events of this type are written to. */
  public String topic() {
    return topic;
  }

  /** The known type with this wire name, if any. */
  public static Optional<EventType> byWireName(String wireName) {
    return Optional.ofNullable(BY_WIRE_NAME.get(wireName));
  }

  /** The type of a known event; an opaque event carries its own wire type instead. */
  public static EventType of(FleetEvent event) {
    return switch (event) {
      case PeerJoined e -> PEER_JOINED;
      case PeerHeartbeat e -> PEER_HEARTBEAT;
      case PeerLost e -> PEER_LOST;
      case PeerLeft e -> PEER_LEFT;
      case RegionRegistered e -> REGION_REGISTERED;
      case RegistrationFailed e -> REGISTRATION_FAILED;
      case RegionSkipped e -> REGION_SKIPPED;
      case RegionDeregistered e -> REGION_DEREGISTERED;
      case RegistrationDecision e -> REGISTRATION_DECISION;
      case ModelLayoutDeclared e -> MODEL_LAYOUT_DECLARED;
      case TransferRequested e -> TRANSFER_REQUESTED;
      case TransferRejected e -> TRANSFER_REJECTED;
      case TransferDispatched e -> TRANSFER_DISPATCHED;
      case TransferCompleted e -> TRANSFER_COMPLETED;
      case TransferFailed e -> TRANSFER_FAILED;
      case TransferTimedOut e -> TRANSFER_TIMED_OUT;
      case OpaqueEvent e ->
          throw new IllegalArgumentException("opaque event of type " + e.wireType() + " has no known type");
    };
  }
}
