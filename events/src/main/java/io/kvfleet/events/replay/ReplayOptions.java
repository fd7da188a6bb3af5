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
 * @param transferPartitions the transfers topic's partition count, with which a verifying replay refuses a
 *     transfer record that is not where its writer put it ({@link io.kvfleet.events.trust.Placement}), as a
 *     verifying coordinator does; 0 when unknown (no such check)
 */
public record ReplayOptions(Until until, Consumer<TimelineEntry> timeline, List<ExplainTarget> explain,
    Verifier verifier, int transferPartitions) {
  public ReplayOptions {
    requireNonNull(until, "until must not be null");
    requireNonNull(timeline, "timeline must not be null");
    explain = List.copyOf(requireNonNull(explain, "explain must not be null"));
    requireNonNull(verifier, "verifier must not be null (Verifier.off() for none)");
    if (transferPartitions < 0) {
      throw new IllegalArgumentException("transferPartitions must not be negative: " + transferPartitions);
    }
  }

  /** Options that fold every readable record. */
  public ReplayOptions(Until until, Consumer<TimelineEntry> timeline, List<ExplainTarget> explain) {
    this(until, timeline, explain, Verifier.off(), 0);
  }

  /** These options, folding only what {@code newVerifier} trusts. */
  public ReplayOptions verifying(Verifier newVerifier) {
    return new ReplayOptions(until, timeline, explain, newVerifier, transferPartitions);
  }

  /** These options, over a transfers topic of {@code partitions} partitions (0: unknown). */
  public ReplayOptions transferPartitions(int partitions) {
    return new ReplayOptions(until, timeline, explain, verifier, partitions);
  }

  /** The whole log, no timeline, no history. */
  public static ReplayOptions defaults() {
    return new ReplayOptions(new Until.End(), entry -> {}, List.of());
  }

  /** These options, stopping where {@code until} says. */
  public ReplayOptions until(Until newUntil) {
    return new ReplayOptions(newUntil, timeline, explain, verifier, transferPartitions);
  }

  /** These options, sending the timeline to {@code sink}. */
  public ReplayOptions timeline(Consumer<TimelineEntry> sink) {
    return new ReplayOptions(until, sink, explain, verifier, transferPartitions);
  }

  /** These options, keeping the history that explaining {@code targets} needs. */
  public ReplayOptions explaining(ExplainTarget... targets) {
    return new ReplayOptions(until, timeline, List.of(targets), verifier, transferPartitions);
  }
}
