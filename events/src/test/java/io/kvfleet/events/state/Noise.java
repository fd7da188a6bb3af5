package io.kvfleet.events.state;

import io.kvfleet.events.EventType;
import io.kvfleet.events.FleetEvent;
import io.kvfleet.events.OpaqueEvent;
import io.kvfleet.events.PeerHeartbeat;
import io.kvfleet.events.PeerJoined;
import io.kvfleet.events.PeerLeft;
import io.kvfleet.events.PeerLost;
import io.kvfleet.events.ReasonCodes;
import io.kvfleet.events.RegionDeregistered;
import io.kvfleet.events.RegionRegistered;
import io.kvfleet.events.RegionSkipped;
import io.kvfleet.events.RegistrationDecision;
import io.kvfleet.events.RegistrationFailed;
import io.kvfleet.events.Samples;
import io.kvfleet.events.TransferCompleted;
import io.kvfleet.events.TransferDispatched;
import io.kvfleet.events.TransferFailed;
import io.kvfleet.events.TransferRejected;
import io.kvfleet.events.TransferTimedOut;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Tuple;

/**
 * Events of every type about a small set of nodes, regions and transfers, with no regard for
 * lifecycles: they collide with the realistic ones and break invariants on purpose.
 */
final class Noise {
  private Noise() {}

  static Arbitrary<FleetEvent> events() {
    return Arbitraries.frequencyOf(
        Tuple.of(15, Arbitraries.of(EventType.class).flatMap(Noise::of)),
        Tuple.of(1, opaque()));
  }

  static Arbitrary<FleetEvent> of(EventType type) {
    return switch (type) {
      case PEER_JOINED -> Combinators.combine(nodes(), epochs())
          .as((n, e) -> new PeerJoined(n, e, "noise", "", List.of()));
      case PEER_HEARTBEAT -> Combinators.combine(nodes(), epochs()).as((n, e) -> new PeerHeartbeat(n, e, 1));
      case PEER_LOST -> Combinators.combine(nodes(), epochs()).as((n, e) -> new PeerLost(n, e, "noise", 0));
      case PEER_LEFT -> Combinators.combine(nodes(), epochs()).as((n, e) -> new PeerLeft(n, e, "noise"));
      case REGION_REGISTERED -> Combinators.combine(nodes(), epochs(), regions(), backends())
          .as((n, e, r, b) -> new RegionRegistered(n, e, Samples.kv(r), b, "noise"));
      case REGISTRATION_FAILED -> Combinators.combine(nodes(), epochs(), regions(), backends())
          .as((n, e, r, b) -> new RegistrationFailed(
              n, e, Samples.kv(r), b, ReasonCodes.BACKEND_ERROR, "noise", 1, "", Samples.host(), ""));
      case REGION_SKIPPED -> Combinators.combine(nodes(), epochs(), regions())
          .as((n, e, r) -> new RegionSkipped(n, e, Samples.kv(r), "noise"));
      case REGION_DEREGISTERED -> Combinators.combine(nodes(), epochs(), regions(), backends())
          .as((n, e, r, b) -> new RegionDeregistered(n, e, r, b, "noise"));
      case REGISTRATION_DECISION -> Combinators.combine(nodes(), epochs())
          .as((n, e) -> new RegistrationDecision(n, e, "kv_data", "FAIL_NODE", "noise"));
      case MODEL_LAYOUT_DECLARED -> Combinators.combine(nodes(), epochs()).as(Samples::layout);
      case TRANSFER_REQUESTED -> Combinators.combine(transfers(), nodes(), epochs(), nodes(), epochs(),
              Arbitraries.of(true, false))
          .as((t, s, se, d, de, parts) -> parts ? Samples.requestTransfer(t, s, se, d, de)
              : Samples.request(t, s, se, d, de));
      case TRANSFER_REJECTED -> Combinators.combine(transfers(), nodes())
          .as((t, n) -> new TransferRejected(t, n, ReasonCodes.UNKNOWN_PEER, "noise"));
      case TRANSFER_DISPATCHED -> Combinators.combine(transfers(), nodes())
          .as((t, n) -> new TransferDispatched(t, n, "coordinator-0"));
      case TRANSFER_COMPLETED -> Combinators.combine(transfers(), nodes(), Arbitraries.longs().between(0, 1 << 20))
          .as((t, n, bytes) -> new TransferCompleted(t, n, bytes, 1, "noise", ""));
      case TRANSFER_FAILED -> Combinators.combine(transfers(), nodes())
          .as((t, n) -> new TransferFailed(t, n, ReasonCodes.TRANSPORT_ERROR, 1, "noise"));
      case TRANSFER_TIMED_OUT -> Combinators.combine(transfers(), nodes())
          .as((t, n) -> new TransferTimedOut(t, n, 0));
    };
  }

  private static Arbitrary<FleetEvent> opaque() {
    return Combinators.combine(nodes(), Arbitraries.of("io.kvfleet.peer.migrated", "io.kvfleet.peer.joined", "x.y"))
        .as((n, t) -> new OpaqueEvent(n, n, t, 9, "{\"nodeId\":\"" + n + "\"}"));
  }

  static Arbitrary<String> nodes() {
    return Arbitraries.of("node-0", "node-1", "node-2", "node-3", "node-4");
  }

  private static Arbitrary<Long> epochs() {
    return Arbitraries.longs().between(1, 4);
  }

  private static Arbitrary<String> regions() {
    return Arbitraries.of("kv-0", "kv-1", "kv-2");
  }

  private static Arbitrary<String> backends() {
    return Arbitraries.of("ucx", "host");
  }

  private static Arbitrary<String> transfers() {
    return Arbitraries.of("t-0", "t-1", "t-2", "t-3", "t-9");
  }
}
