package io.kvfleet.events.state;

import io.kvfleet.events.Envelope;
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
import io.kvfleet.events.Samples;
import io.kvfleet.events.TransferCompleted;
import io.kvfleet.events.TransferDispatched;
import io.kvfleet.events.TransferFailed;
import io.kvfleet.events.TransferRejected;
import io.kvfleet.events.TransferRequested;
import io.kvfleet.events.TransferTimedOut;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;

/**
 * Logs as a fleet writes them: node and transfer lifecycles interleaved at random, noise events
 * mixed in, the odd sequence number skipped and the odd envelope delivered twice.
 */
public final class Histories {
  private Histories() {}

  /** A producer incarnation. */
  private record Writer(String producer, long epoch) {}

  public static Arbitrary<List<Envelope>> histories() {
    return Combinators.combine(
            Lifecycles.nodes().list().ofMinSize(1).ofMaxSize(4),
            Lifecycles.transfers().list().ofMaxSize(8),
            Noise.events().list().ofMaxSize(6),
            Arbitraries.longs())
        .as(Histories::history);
  }

  private static List<Envelope> history(
      List<Lifecycles.Node> nodes, List<Lifecycles.Transfer> transfers, List<FleetEvent> noise, long seed) {
    List<Deque<FleetEvent>> streams = new ArrayList<>();
    for (int i = 0; i < nodes.size(); i++) {
      streams.add(new ArrayDeque<>(Lifecycles.events("node-" + i, nodes.get(i))));
    }
    for (int j = 0; j < transfers.size(); j++) {
      streams.add(new ArrayDeque<>(Lifecycles.events("t-" + j, transfers.get(j))));
    }
    noise.forEach(event -> streams.add(new ArrayDeque<>(List.of(event))));
    var random = new Random(seed);
    return envelopes(interleave(streams, random), random);
  }

  private static List<FleetEvent> interleave(List<Deque<FleetEvent>> streams, Random random) {
    var merged = new ArrayList<FleetEvent>();
    var open = new ArrayList<>(streams.stream().filter(s -> !s.isEmpty()).toList());
    while (!open.isEmpty()) {
      Deque<FleetEvent> stream = open.get(random.nextInt(open.size()));
      merged.add(stream.removeFirst());
      if (stream.isEmpty()) {
        open.remove(stream);
      }
    }
    return merged;
  }

  private static List<Envelope> envelopes(List<FleetEvent> events, Random random) {
    Map<Writer, Long> sequences = new HashMap<>();
    var envelopes = new ArrayList<Envelope>();
    for (int i = 0; i < events.size(); i++) {
      FleetEvent event = events.get(i);
      Writer writer = writerOf(event);
      long sequence = sequences.merge(writer, random.nextInt(30) == 0 ? 2L : 1L, Long::sum);
      envelopes.add(
          new Envelope("e-" + i, writer.producer(), writer.epoch(), sequence, Samples.T0.plusSeconds(i), "", event));
    }
    for (int copies = random.nextInt(3); copies > 0 && !envelopes.isEmpty(); copies--) {
      int from = random.nextInt(envelopes.size());
      envelopes.add(from + 1 + random.nextInt(envelopes.size() - from), envelopes.get(from));
    }
    return envelopes;
  }

  private static Writer writerOf(FleetEvent event) {
    return switch (event) {
      case PeerJoined e -> new Writer(e.nodeId(), e.epoch());
      case PeerHeartbeat e -> new Writer(e.nodeId(), e.epoch());
      case PeerLeft e -> new Writer(e.nodeId(), e.epoch());
      case RegionRegistered e -> new Writer(e.nodeId(), e.epoch());
      case RegistrationFailed e -> new Writer(e.nodeId(), e.epoch());
      case RegionSkipped e -> new Writer(e.nodeId(), e.epoch());
      case RegionDeregistered e -> new Writer(e.nodeId(), e.epoch());
      case RegistrationDecision e -> new Writer(e.nodeId(), e.epoch());
      case ModelLayoutDeclared e -> new Writer(e.nodeId(), e.epoch());
      case TransferRequested _ -> new Writer("router", 1);
      case PeerLost _ -> new Writer("coordinator-0", 1);
      case TransferDispatched _ -> new Writer("coordinator-0", 1);
      case TransferRejected _ -> new Writer("coordinator-0", 1);
      case TransferTimedOut _ -> new Writer("coordinator-0", 1);
      case TransferCompleted e -> new Writer("agent-" + e.sourceNode(), 1);
      case TransferFailed e -> new Writer("agent-" + e.sourceNode(), 1);
      case OpaqueEvent _ -> new Writer("newer-build", 1);
    };
  }
}
