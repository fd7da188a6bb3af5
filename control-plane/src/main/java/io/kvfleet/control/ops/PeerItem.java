package io.kvfleet.control.ops;

import io.kvfleet.events.BackendCapability;
import io.kvfleet.events.state.PeerStatus;
import io.kvfleet.events.state.PeerView;
import java.time.Instant;
import java.util.List;

/** A peer as the API shows it: its incarnation, role, liveness and what each backend can register. */
record PeerItem(String nodeId, String role, long epoch, PeerStatus status, String host, Instant joinedAt,
    Instant lastHeartbeat, long leaseMillis, List<BackendCapability> capabilities) {
  static PeerItem of(PeerView p) {
    return new PeerItem(p.nodeId(), Roles.of(p.nodeId()), p.epoch(), p.status(), p.host(), p.joinedAt(),
        p.lastHeartbeat(), p.leaseMillis(), p.capabilities());
  }
}
