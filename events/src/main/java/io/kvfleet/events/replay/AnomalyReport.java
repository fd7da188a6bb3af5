package io.kvfleet.events.replay;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The anomalies of a log: how many of each kind, and the first ones of each kind in replay order
 * (at most {@link Anomalies#EXAMPLES_PER_KIND}, so a badly broken log cannot exhaust memory).
 */
public record AnomalyReport(SortedMap<AnomalyKind, Long> counts, List<Anomaly> anomalies) {
  public AnomalyReport {
    counts = new TreeMap<>(requireNonNull(counts, "counts must not be null"));
    anomalies = List.copyOf(requireNonNull(anomalies, "anomalies must not be null"));
  }

  /** How many anomalies of every kind. */
  public long total() {
    return counts.values().stream().mapToLong(Long::longValue).sum();
  }

  /** How many of {@code kind}. */
  public long count(AnomalyKind kind) {
    return counts.getOrDefault(kind, 0L);
  }

  /** The listed anomalies of {@code kind}. */
  public List<Anomaly> of(AnomalyKind kind) {
    return anomalies.stream().filter(a -> a.kind() == kind).toList();
  }

  /** Whether fewer anomalies are listed than were counted. */
  public boolean truncated() {
    return anomalies.size() < total();
  }
}
