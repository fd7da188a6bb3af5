package io.kvfleet.events.replay;

import static java.util.Objects.requireNonNull;

import io.kvfleet.events.trust.Verifier;
import java.util.List;
import java.util.function.Consumer;

/**
 * What a replay does beside folding.
 *
 * @param until where it stops
 * @param timeline where each folded record goes, as it is folded
 * @param explain the entities to keep the history of, for {@link ReplayResult#explain}; none keeps none
 * @param verifier what decides whether a record is folded at all (off: every readable one is)
 * @param placement what a verifying replay refuses as out of place, as a verifying coordinator does
 *     ({@link Placement#ANYWHERE}: nothing)
 */
public record ReplayOptions(Until until, Consumer<TimelineEntry> timeline, List<ExplainTarget> explain,
    Verifier verifier, Placement placement) {
  public ReplayOptions {
    requireNonNull(until, "until must not be null");
    requireNonNull(timeline, "timeline must not be null");
    explain = List.copyOf(requireNonNull(explain, "explain must not be null"));
    requireNonNull(verifier, "verifier must not be null (Verifier.off() for none)");
    requireNonNull(placement, "placement must not be null (Placement.ANYWHERE for none)");
  }

  /** Options that fold every readable record. */
  public ReplayOptions(Until until, Consumer<TimelineEntry> timeline, List<ExplainTarget> explain) {
    this(until, timeline, explain, Verifier.off(), Placement.ANYWHERE);
  }

  /** These options, folding only what {@code newVerifier} trusts. */
  public ReplayOptions verifying(Verifier newVerifier) {
    return new ReplayOptions(until, timeline, explain, newVerifier, placement);
  }

  /** These options, refusing (when verifying) what {@code newPlacement} says is out of place. */
  public ReplayOptions placement(Placement newPlacement) {
    return new ReplayOptions(until, timeline, explain, verifier, newPlacement);
  }

  /** The whole log, no timeline, no history. */
  public static ReplayOptions defaults() {
    return new ReplayOptions(new Until.End(), entry -> {}, List.of());
  }

  /** These options, stopping where {@code until} says. */
  public ReplayOptions until(Until newUntil) {
    return new ReplayOptions(newUntil, timeline, explain, verifier, placement);
  }

  /** These options, sending the timeline to {@code sink}. */
  public ReplayOptions timeline(Consumer<TimelineEntry> sink) {
    return new ReplayOptions(until, sink, explain, verifier, placement);
  }

  /** These options, keeping the history that explaining {@code targets} needs. */
  public ReplayOptions explaining(ExplainTarget... targets) {
    return new ReplayOptions(until, timeline, List.of(targets), verifier, placement);
  }
}
