package io.kvfleet.events.trust;

import io.kvfleet.events.EventType;
import io.kvfleet.events.FleetEvent;
import io.kvfleet.events.OpaqueEvent;

/** Which role may write which event type: the table in docs/SECURITY.md, "Signed events". */
final class Rights {
  private Rights() {}

  /**
   * Rights follow the wire type: an event this build reads only as opaque data (a known type at a newer schema
   * version) needs the role its type needs, so no role writes another's type by bumping {@code schemaversion}; a
   * type this build does not know at all is kept as data, never folded into state, and any role may write it.
   */
  static boolean mayWrite(Role role, FleetEvent event) {
    return mayWrite(role, event.wireType());
  }

  /** Whether {@code role} may write a document whose {@code type} is {@code wireType}, at any schema version. */
  static boolean mayWrite(Role role, String wireType) {
    return EventType.byWireName(wireType).map(type -> mayWrite(role, type)).orElse(true);
  }

  /** Whether {@code role} may write events of the known type {@code type}, at any schema version. */
  private static boolean mayWrite(Role role, EventType type) {
    return switch (type) {
      case PEER_JOINED, PEER_HEARTBEAT, PEER_LEFT, REGION_REGISTERED, REGISTRATION_FAILED, REGION_SKIPPED,
          REGION_DEREGISTERED, REGISTRATION_DECISION, MODEL_LAYOUT_DECLARED, TRANSFER_COMPLETED -> role == Role.NODE;
      case PEER_LOST, TRANSFER_DISPATCHED, TRANSFER_REJECTED, TRANSFER_TIMED_OUT -> role == Role.COORDINATOR;
      case TRANSFER_REQUESTED -> role == Role.ROUTER;
      case TRANSFER_FAILED -> role == Role.NODE || role == Role.COORDINATOR;
    };
  }

  /** Whether a node key writing {@code event} must be bound to {@code event.nodeId()}. */
  static boolean speaksForItsNode(FleetEvent event) {
    return switch (event) {
      case OpaqueEvent e -> !e.nodeId().isEmpty();
      default -> true; // node events are about their node; a transfer ending's node id is its source
    };
  }
}
