package io.kvfleet.control.agent;

import io.kvfleet.events.FleetEvent;
import io.kvfleet.events.ModelLayoutDeclared;
import io.kvfleet.events.RegionDeregistered;
import io.kvfleet.events.RegionRegistered;
import io.kvfleet.events.RegionSkipped;
import io.kvfleet.events.RegistrationDecision;
import io.kvfleet.events.RegistrationFailed;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What a node's registrations say, kept so that a new incarnation can say it again: the engine
 * still holds the same memory under the same keys, so after a fenced agent joins again, it
 * publishes the same registration outcomes at its new epoch instead of releasing and registering
 * the memory anew (which a transfer still finishing on the old incarnation may be using). Only the
 * latest outcome of a kind for a region (and backend) is kept, after the others it came after: a
 * worker that repeats a failing registration does not grow the agent, nor the next join's events.
 * Event-loop owned.
 */
final class Reannounce {
  private final Map<String, FleetEvent> said = new LinkedHashMap<>();

  /** Keeps the registration outcomes among {@code events}; a release forgets what was said of that region. */
  void heard(List<FleetEvent> events) {
    for (FleetEvent e : events) {
      if (e instanceof RegionDeregistered d) {
        said.values().removeIf(s -> s.subject().equals(d.regionId()));
      } else if (at(e, 1).isPresent()) {
        String key = key(e);
        said.remove(key); // the latest goes last, as it was said
        said.put(key, e);
      }
    }
  }

  /** Everything kept, as the incarnation at {@code epoch} says it. */
  List<FleetEvent> at(long epoch) {
    return said.values().stream().flatMap(e -> at(e, epoch).stream()).toList();
  }

  /** What a later outcome replaces: the same kind of outcome for the same subject (and backend). */
  private static String key(FleetEvent event) {
    return event.wireType() + " " + event.subject() + switch (event) {
      case RegionRegistered r -> " " + r.backend();
      case RegistrationFailed f -> " " + f.backend();
      default -> "";
    };
  }

  /** {@code event} at another epoch, if it is a registration outcome. */
  static Optional<FleetEvent> at(FleetEvent event, long epoch) {
    return Optional.ofNullable(switch (event) {
      case RegionRegistered r -> new RegionRegistered(r.nodeId(), epoch, r.region(), r.backend(), r.remoteKey());
      case RegistrationFailed f -> new RegistrationFailed(f.nodeId(), epoch, f.region(), f.backend(), f.reason(),
          f.detail(), f.nativeCode(), f.nativeMessage(), f.capability(), f.remediation());
      case RegionSkipped s -> new RegionSkipped(s.nodeId(), epoch, s.region(), s.reason());
      case RegistrationDecision d -> new RegistrationDecision(d.nodeId(), epoch, d.component(), d.policy(),
          d.outcome());
      case ModelLayoutDeclared l -> new ModelLayoutDeclared(l.nodeId(), epoch, l.modelId(), l.tpRank(), l.tpSize(),
          l.components());
      default -> null; // not a registration outcome: joins, heartbeats, transfers
    });
  }
}
