package io.kvfleet.events.replay;

import io.kvfleet.events.BackendCapability;
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
import io.kvfleet.events.RegionSpec;
import io.kvfleet.events.RegistrationDecision;
import io.kvfleet.events.RegistrationFailed;
import io.kvfleet.events.TransferCompleted;
import io.kvfleet.events.TransferDispatched;
import io.kvfleet.events.TransferFailed;
import io.kvfleet.events.TransferRejected;
import io.kvfleet.events.TransferRequested;
import io.kvfleet.events.TransferTimedOut;
import java.time.Instant;
import java.util.stream.Collectors;

/** One sentence per event, as the steps of an explanation cite it. */
final class Describe {
  private Describe() {}

  static String event(Fact fact) {
    String by = " (by " + fact.producer() + ")";
    return switch (fact.event()) {
      case PeerJoined e -> e.nodeId() + " joined at epoch " + e.epoch() + " on " + e.host() + "; backends: "
          + e.capabilities().stream().map(Describe::capability).collect(Collectors.joining(", "));
      case PeerHeartbeat e -> e.nodeId() + " epoch " + e.epoch() + " heartbeat, lease " + e.leaseMillis() + " ms";
      case PeerLost e -> e.nodeId() + " epoch " + e.epoch() + " was declared lost: " + e.reason()
          + ", last heartbeat " + Text.clock(Instant.ofEpochMilli(e.lastSeenMillis())) + by;
      case PeerLeft e -> e.nodeId() + " epoch " + e.epoch() + " left: " + e.reason();
      case RegionRegistered e -> region(e.nodeId(), e.epoch(), e.region()) + " registered with " + e.backend()
          + (e.remoteKey().isEmpty() ? "" : " (remote key present)");
      case RegistrationFailed e -> region(e.nodeId(), e.epoch(), e.region()) + ": " + e.backend() + " refused it: "
          + e.reason() + (e.nativeCode() != 0 || !e.nativeMessage().isEmpty()
              ? " (native " + e.nativeCode() + (e.nativeMessage().isEmpty() ? "" : " " + e.nativeMessage()) + ")" : "")
          + (e.detail().isEmpty() ? "" : "; " + e.detail())
          + "; " + e.backend() + " can register " + e.capability().memoryTypes() + " over " + e.capability().transports()
          + (e.remediation().isEmpty() ? "" : "; remediation: " + e.remediation());
      case RegionSkipped e -> region(e.nodeId(), e.epoch(), e.region()) + " skipped: " + e.reason();
      case RegionDeregistered e -> e.regionId() + " of " + e.nodeId() + " epoch " + e.epoch() + " released by "
          + e.backend() + ": " + e.reason();
      case RegistrationDecision e -> e.nodeId() + " epoch " + e.epoch() + " chose policy " + e.policy() + " for "
          + e.component() + ": " + e.outcome();
      case ModelLayoutDeclared e -> RequestStory.layout(e);
      case TransferRequested e when e.requestForm() -> RequestStory.requested(e) + by;
      case TransferRequested e -> e.transferId() + " requested" + by + ": " + e.op() + " " + Text.bytes(e.totalBytes())
          + " in " + e.ranges().size() + " range" + (e.ranges().size() == 1 ? "" : "s") + " from " + e.sourceNode()
          + "/" + e.sourceRegion() + " epoch " + e.sourceEpoch() + " to " + e.destinationNode() + "/"
          + e.destinationRegion() + " epoch " + e.destinationEpoch() + ", deadline "
          + Text.clock(Instant.ofEpochMilli(e.deadlineMillis()));
      case TransferRejected e -> e.transferId() + " rejected" + by + ": " + e.reason() + ": " + e.detail();
      case TransferDispatched e -> e.transferId() + " dispatched to " + e.sourceNode() + by;
      case TransferCompleted e when !e.parts().isEmpty() -> RequestStory.completed(e) + by;
      case TransferCompleted e -> e.transferId() + " completed: " + Text.bytes(e.bytes()) + " in "
          + String.format("%.3f ms", e.durationNanos() / 1e6) + " via " + e.path() + by;
      case TransferFailed e -> e.transferId() + " failed" + by + ": " + e.reason()
          + (e.detail().isEmpty() ? "" : ": " + e.detail());
      case TransferTimedOut e -> e.transferId() + " timed out: deadline "
          + Text.clock(Instant.ofEpochMilli(e.deadlineMillis())) + " passed" + by;
      case OpaqueEvent e -> "an event of type " + e.wireType() + " v" + e.schemaVersion() + " this build cannot read";
    };
  }

  static String region(String nodeId, long epoch, RegionSpec r) {
    return r.regionId() + " of " + nodeId + " epoch " + epoch + " [" + r.kind() + " " + r.memoryType()
        + (r.device() >= 0 ? " device " + r.device() : "") + " " + Text.bytes(r.length()) + "]";
  }

  private static String capability(BackendCapability c) {
    return c.backend() + (c.available() ? " " + c.memoryTypes() : " unavailable (" + c.detail() + ")");
  }
}
