package io.kvfleet.events.trust;

import io.kvfleet.events.FleetEvent;
import io.kvfleet.events.ModelLayoutDeclared;
import io.kvfleet.events.OpaqueEvent;
import io.kvfleet.events.PeerHeartbeat;
import io.kvfleet.events.PeerJoined;
import io.kvfleet.events.PeerLeft;
import io.kvfleet.events.PeerLost;
import io.kvfleet.events.RegionDeregistered;
import io.kvfleet.events.RegionRegistered;
import io.kvfleet.events.RegionSkipped;
import io.kvfleet.events.RegistrationDecision;
import io.kvfleet.events.RegistrationFailed;
import io.kvfleet.events.TransferCompleted;
import io.kvfleet.events.TransferDispatched;
import io.kvfleet.events.TransferFailed;
import io.kvfleet.events.TransferRejected;
import io.kvfleet.events.TransferRequested;
import io.kvfleet.events.TransferTimedOut;

/** Which role may write which event type: the table in docs/SECURITY.md, "Signed events". */
final class Rights {
  private Rights() {}

  static boolean mayWrite(Role role, FleetEvent event) {
    return switch (event) {
      case PeerJoined e -> role == Role.NODE;
      case PeerHeartbeat e -> role == Role.NODE;
      case PeerLeft e -> role == Role.NODE;
      case RegionRegistered e -> role == Role.NODE;
      case RegistrationFailed e -> role == Role.NODE;
      case RegionSkipped e -> role == Role.NODE;
      case RegionDeregistered e -> role == Role.NODE;
      case RegistrationDecision e -> role == Role.NODE;
      case ModelLayoutDeclared e -> role == Role.NODE;
      case PeerLost e -> role == Role.COORDINATOR;
      case TransferRequested e -> role == Role.ROUTER;
      case TransferDispatched e -> role == Role.COORDINATOR;
      case TransferRejected e -> role == Role.COORDINATOR;
      case TransferTimedOut e -> role == Role.COORDINATOR;
      case TransferCompleted e -> role == Role.NODE;
      case TransferFailed e -> role == Role.NODE || role == Role.COORDINATOR;
      case OpaqueEvent e -> true; // a type this build does not know: kept as data, never folded into state
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
