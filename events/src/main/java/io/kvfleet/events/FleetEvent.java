package io.kvfleet.events;

/**
 * Everything that can happen in a fleet, as data. Each event is a record with an explicit wire
 * name and schema version ({@link EventType}); folds switch over this sealed hierarchy without a
 * {@code default}, so a new event does not compile until every fold handles it.
 */
public sealed interface FleetEvent
    permits PeerJoined,
        PeerHeartbeat,
        PeerLost,
        PeerLeft,
        RegionRegistered,
        RegistrationFailed,
        RegionSkipped,
        RegionDeregistered,
        RegistrationDecision,
        ModelLayoutDeclared,
        TransferRequested,
        TransferRejected,
        TransferDispatched,
        TransferCompleted,
        TransferFailed,
        TransferTimedOut,
        OpaqueEvent {

  /** The node this event is about; it is also the Kafka key (transfers: the source node). */
  String nodeId();

  /** The entity the event is about: node, region or transfer id (the CloudEvents subject). */
  String subject();

  /** The CloudEvents {@code type}: a stable wire name, never a Java class name. */
  default String wireType() {
    return EventType.of(this).wireName();
  }

  /** The schema version of this event's data (a type may write an older version when its data fits it). */
  default int schemaVersion() {
    return EventType.of(this).schemaVersion();
  }
}
