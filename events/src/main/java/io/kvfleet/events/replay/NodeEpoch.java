package io.kvfleet.events.replay;

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

/**
 * The node incarnation an event is about, and whether the node writes it itself.
 *
 * @param ownEvent whether the node's own agent writes this event (a loss is the coordinator's)
 */
record NodeEpoch(String nodeId, long epoch, boolean ownEvent) {

  /** The incarnation a node-lifecycle or region event names; null for transfer and opaque events. */
  static NodeEpoch of(FleetEvent event) {
    return switch (event) {
      case PeerJoined e -> new NodeEpoch(e.nodeId(), e.epoch(), true);
      case PeerHeartbeat e -> new NodeEpoch(e.nodeId(), e.epoch(), true);
      case PeerLeft e -> new NodeEpoch(e.nodeId(), e.epoch(), true);
      case PeerLost e -> new NodeEpoch(e.nodeId(), e.epoch(), false);
      case RegionRegistered e -> new NodeEpoch(e.nodeId(), e.epoch(), true);
      case RegistrationFailed e -> new NodeEpoch(e.nodeId(), e.epoch(), true);
      case RegionSkipped e -> new NodeEpoch(e.nodeId(), e.epoch(), true);
      case RegionDeregistered e -> new NodeEpoch(e.nodeId(), e.epoch(), true);
      case RegistrationDecision e -> new NodeEpoch(e.nodeId(), e.epoch(), true);
      case ModelLayoutDeclared e -> new NodeEpoch(e.nodeId(), e.epoch(), true);
      case TransferRequested e -> null;
      case TransferRejected e -> null;
      case TransferDispatched e -> null;
      case TransferCompleted e -> null;
      case TransferFailed e -> null;
      case TransferTimedOut e -> null;
      case OpaqueEvent e -> null;
    };
  }
}
