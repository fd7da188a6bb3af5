package io.kvfleet.events.state;

import io.kvfleet.events.ByteRange;
import io.kvfleet.events.FleetEvent;
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
import io.kvfleet.events.TransferOp;
import io.kvfleet.events.TransferRejected;
import io.kvfleet.events.TransferRequested;
import io.kvfleet.events.TransferTimedOut;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;

/** Realistic lifecycles of nodes and transfers, each as the events it writes, in order. */
final class Lifecycles {
  private Lifecycles() {}

  enum Outcome { REGISTERED, TWO_BACKENDS, FAILED, FAILED_THEN_REGISTERED, SKIPPED }

  enum Ending { RUNNING, LOST, LEFT }

  enum End { NONE, DISPATCHED, COMPLETED, FAILED, REJECTED, TIMED_OUT, FAILED_UNDISPATCHED, TWO_ENDS }

  record Incarnation(int heartbeats, List<Outcome> regions, boolean releaseFirst, Ending ending) {}

  record Node(long firstEpoch, List<Incarnation> incarnations) {}

  record Transfer(int source, int destination, long sourceEpoch, long destinationEpoch, List<Long> lengths, End end) {}

  static Arbitrary<Node> nodes() {
    Arbitrary<Incarnation> incarnation =
        Combinators.combine(
                Arbitraries.integers().between(0, 3),
                Arbitraries.of(Outcome.class).list().ofMaxSize(3),
                Arbitraries.of(true, false),
                Arbitraries.of(Ending.class))
            .as(Incarnation::new);
    return Combinators.combine(Arbitraries.longs().between(1, 3), incarnation.list().ofMinSize(1).ofMaxSize(2))
        .as(Node::new);
  }

  static Arbitrary<Transfer> transfers() {
    return Combinators.combine(
            Arbitraries.integers().between(0, 3),
            Arbitraries.integers().between(0, 3),
            Arbitraries.longs().between(1, 3),
            Arbitraries.longs().between(1, 3),
            Arbitraries.longs().between(1, 1 << 16).list().ofMinSize(1).ofMaxSize(3),
            Arbitraries.of(End.class))
        .as(Transfer::new);
  }

  static List<FleetEvent> events(String nodeId, Node node) {
    var events = new ArrayList<FleetEvent>();
    long epoch = node.firstEpoch();
    for (Incarnation life : node.incarnations()) {
      String address = "ucx-" + nodeId + "-" + epoch;
      events.add(new PeerJoined(nodeId, epoch, "host-" + nodeId, address, List.of(Samples.ucx())));
      for (int beat = 1; beat <= life.heartbeats(); beat++) {
        events.add(new PeerHeartbeat(nodeId, epoch, 1_000L * beat));
      }
      for (int k = 0; k < life.regions().size(); k++) {
        events.addAll(registration(nodeId, epoch, "kv-" + k, life.regions().get(k)));
      }
      if (life.releaseFirst() && !life.regions().isEmpty() && life.regions().getFirst() == Outcome.REGISTERED) {
        events.add(new RegionDeregistered(nodeId, epoch, "kv-0", "ucx", ReasonCodes.SHUTDOWN));
      }
      switch (life.ending()) {
        case RUNNING -> {}
        case LOST -> events.add(new PeerLost(nodeId, epoch, ReasonCodes.LEASE_EXPIRED, 0));
        case LEFT -> events.add(new PeerLeft(nodeId, epoch, ReasonCodes.SHUTDOWN));
      }
      epoch++;
    }
    return events;
  }

  private static List<FleetEvent> registration(String nodeId, long epoch, String regionId, Outcome outcome) {
    var spec = Samples.kv(regionId);
    var ucx = new RegionRegistered(nodeId, epoch, spec, "ucx", "rkey-" + nodeId + "-" + epoch + "-" + regionId);
    var host = new RegionRegistered(nodeId, epoch, spec, "host", "shm-" + nodeId + "-" + epoch + "-" + regionId);
    var refused =
        new RegistrationFailed(
            nodeId, epoch, spec, "ucx", ReasonCodes.MEMORY_TYPE_UNSUPPORTED, "no cuda md", -4, "UCS_ERR_UNSUPPORTED",
            Samples.ucx(), "rebuild UCX with CUDA");
    var decision = new RegistrationDecision(nodeId, epoch, "kv_data", "FALLBACK_STAGED", regionId + " via host");
    return switch (outcome) {
      case REGISTERED -> List.of(ucx);
      case TWO_BACKENDS -> List.of(ucx, host);
      case FAILED -> List.of(refused, decision);
      case FAILED_THEN_REGISTERED -> List.of(refused, host);
      case SKIPPED -> List.of(new RegionSkipped(nodeId, epoch, spec, "zero length"));
    };
  }

  static List<FleetEvent> events(String transferId, Transfer plan) {
    var ranges = new ArrayList<ByteRange>();
    long offset = 0;
    for (long length : plan.lengths()) {
      ranges.add(new ByteRange(offset, offset, length));
      offset += length;
    }
    String source = "node-" + plan.source();
    var request =
        new TransferRequested(
            transferId, source, plan.sourceEpoch(), "kv-0", "node-" + plan.destination(),
            plan.destinationEpoch(), "kv-0", TransferOp.WRITE, ranges, 1_000, false);
    var dispatched = new TransferDispatched(transferId, source, "coordinator-0");
    var completed = new TransferCompleted(transferId, source, offset, 1_000, "ucx/tcp", "");
    var failed = new TransferFailed(transferId, source, ReasonCodes.PEER_LOST, 0, "peer lost");
    return switch (plan.end()) {
      case NONE -> List.of(request);
      case DISPATCHED -> List.of(request, dispatched);
      case COMPLETED -> List.of(request, dispatched, completed);
      case FAILED -> List.of(request, dispatched, failed);
      case REJECTED -> List.of(request, new TransferRejected(transferId, source, ReasonCodes.STALE_EPOCH, ""));
      case TIMED_OUT -> List.of(request, dispatched, new TransferTimedOut(transferId, source, 1_000));
      case FAILED_UNDISPATCHED -> List.of(request, failed);
      case TWO_ENDS -> List.of(request, dispatched, completed, failed);
    };
  }
}
