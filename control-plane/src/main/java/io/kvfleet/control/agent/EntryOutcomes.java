package io.kvfleet.control.agent;

import com.fasterxml.jackson.annotation.JsonValue;
import io.kvfleet.control.dataplane.EngineEvents;
import io.kvfleet.events.FleetEvent;
import io.kvfleet.events.ReasonCodes;
import io.kvfleet.events.RegionRegistered;
import io.kvfleet.events.RegionSkipped;
import io.kvfleet.events.RegionSpec;
import io.kvfleet.events.RegistrationFailed;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What became of each entry of a registration request, read from its outcome events: registered
 * (by at least one backend, the staged path included), skipped (nothing to register), or failed
 * (every backend refused it), with the reason and diagnosis a caller acts on.
 */
final class EntryOutcomes {
  private EntryOutcomes() {}

  /** One entry's outcome; lower case on the wire. */
  enum Outcome {
    REGISTERED, SKIPPED, FAILED;

    @JsonValue
    String wire() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  /** Why one backend did not take the entry (or why there was nothing to take). */
  record Diagnosis(String backend, String reason, String detail, long nativeCode, String nativeMessage,
      String remediation) {}

  /**
   * One entry.
   *
   * @param backends the backends that registered it (empty unless registered)
   * @param reason the reason code when skipped or failed, null when registered
   * @param diagnosis the refusal that explains a failure best (or the skip's), null when registered
   * @param refusals every backend's refusal, also of a registered entry that some backend refused
   */
  record Entry(String component, int index, String regionId, Outcome outcome, String reason,
      List<String> backends, Diagnosis diagnosis, List<Diagnosis> refusals) {}

  /** Entry counts by outcome. */
  record Counts(int registered, int skipped, int failed) {}

  /** The entries that {@code events} are about, in the order the events name them first. */
  static List<Entry> of(List<FleetEvent> events) {
    Map<String, Collected> byRegion = new LinkedHashMap<>();
    // Only these three are about one entry; the others (decisions, releases) the answer lists as events.
    for (FleetEvent event : events) {
      if (event instanceof RegionRegistered r) {
        collect(byRegion, r.region()).backends.add(r.backend());
      } else if (event instanceof RegistrationFailed f) {
        collect(byRegion, f.region()).refusals.add(new Diagnosis(f.backend(), f.reason(), f.detail(), f.nativeCode(),
            f.nativeMessage(), f.remediation()));
      } else if (event instanceof RegionSkipped s) {
        collect(byRegion, s.region()).skip = s.reason();
      }
    }
    return byRegion.values().stream().map(Collected::entry).toList();
  }

  static Counts count(List<Entry> entries) {
    int registered = 0;
    int skipped = 0;
    int failed = 0;
    for (Entry entry : entries) {
      switch (entry.outcome()) {
        case REGISTERED -> registered++;
        case SKIPPED -> skipped++;
        case FAILED -> failed++;
      }
    }
    return new Counts(registered, skipped, failed);
  }

  private static Collected collect(Map<String, Collected> byRegion, RegionSpec region) {
    return byRegion.computeIfAbsent(region.regionId(), id -> new Collected(region));
  }

  /** What the events say of one region so far. */
  private static final class Collected {
    final RegionSpec region;
    final List<String> backends = new ArrayList<>();
    final List<Diagnosis> refusals = new ArrayList<>();
    String skip;

    Collected(RegionSpec region) {
      this.region = region;
    }

    Entry entry() {
      if (!backends.isEmpty()) {
        return entry(Outcome.REGISTERED, null, null);
      }
      if (skip != null) {
        return entry(Outcome.SKIPPED, skip, new Diagnosis("", skip, skipDetail(skip), 0, "", remediation(skip)));
      }
      Diagnosis best = refusals.stream().min(java.util.Comparator.comparingInt(EntryOutcomes::generality))
          .orElseThrow();
      return entry(Outcome.FAILED, best.reason(), best);
    }

    private Entry entry(Outcome outcome, String reason, Diagnosis diagnosis) {
      return new Entry(region.component(), region.index(), region.regionId(), outcome, reason,
          List.copyOf(backends), diagnosis, List.copyOf(refusals));
    }

    private String skipDetail(String reason) {
      return switch (reason) {
        case ReasonCodes.NULL_ADDRESS -> region.regionId() + ": null address; nothing to register";
        case ReasonCodes.ZERO_LENGTH -> region.regionId() + ": zero length; nothing to register";
        default -> region.regionId() + ": nothing to register (" + reason + ")";
      };
    }
  }

  /**
   * How little a refusal says about the entry itself: a backend that looked at the memory says most;
   * one that is not loaded, or never takes this memory type, says only what the capabilities say.
   */
  private static int generality(Diagnosis refusal) {
    return switch (refusal.reason()) {
      case ReasonCodes.BACKEND_UNAVAILABLE -> 1;
      case ReasonCodes.MEMORY_TYPE_UNSUPPORTED, ReasonCodes.NOT_GRANTABLE -> 2;
      default -> 0;
    };
  }

  private static String remediation(String reason) {
    return EngineEvents.remediation(reason);
  }
}
