package io.kvfleet.events.state;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The sequence numbers seen per producer incarnation, as runs of consecutive numbers, so gaps and
 * duplicates are found whatever order the topics interleave in. Public only so that its records,
 * parts of a {@link StateImage}, can be named by the snapshot package.
 */
public final class Sequences {
  /** One producer incarnation. */
  public record Producer(String producer, long epoch) implements Comparable<Producer> {
    @Override
    public int compareTo(Producer other) {
      int byName = producer.compareTo(other.producer);
      return byName != 0 ? byName : Long.compare(epoch, other.epoch);
    }

    // Written out: the generated ones cost the lookup of every event a method-handle chain, and their
    // hash (31 * name + epoch) makes neighbouring nodes' nearby epochs collide; the epoch is mixed here.
    @Override
    public boolean equals(Object o) {
      return o instanceof Producer p && epoch == p.epoch && producer.equals(p.producer);
    }

    @Override
    public int hashCode() {
      return producer.hashCode() * 31 + Long.hashCode(epoch * 0x9E3779B97F4A7C15L);
    }
  }

  /** Consecutive sequence numbers {@code first..last}, both included. */
  public record Run(long first, long last) {}

  /** What is known of one producer incarnation: its runs and how many duplicates came. */
  public record Seen(List<Run> runs, long duplicates) {}

  /** What {@link #record} found a sequence number to be. */
  enum Recorded {
    /** Not seen before: fold it. */
    NEW,
    /** Seen before (a redelivery): do not fold it again. */
    SEEN,
    /** Of an incarnation older than the newest ones kept: not folded. */
    OLDER_THAN_KEPT
  }

  // Looked up for every event, so hashed; sorted only when listed or hashed.
  private final Map<Producer, Runs> runs = new HashMap<>();
  private final Map<Producer, Long> duplicates = new HashMap<>();
  private final Map<String, TreeSet<Long>> epochs = new HashMap<>();
  private final int keptEpochs;
  // The incarnation looked up last, and its runs: a replay asks of each event whether it was seen, then records it.
  private Producer lastKey;
  private Runs lastRuns;

  /** Keeps the sequence numbers of the newest {@code keptEpochs} incarnations of each producer. */
  Sequences(int keptEpochs) {
    this.keptEpochs = keptEpochs;
  }

  /** Records a sequence number, unless it was seen before or its incarnation is older than those kept. */
  Recorded record(String producer, long epoch, long sequence) {
    Runs seen = runsOf(producer, epoch);
    if (seen == null) {
      var key = new Producer(producer, epoch);
      if (!admit(key)) {
        return Recorded.OLDER_THAN_KEPT;
      }
      seen = new Runs();
      runs.put(key, seen);
    }
    if (!seen.add(sequence)) {
      duplicates.merge(new Producer(producer, epoch), 1L, Long::sum);
      return Recorded.SEEN;
    }
    return Recorded.NEW;
  }

  /** Makes room for a new incarnation, forgetting the producer's oldest; false when it is older than all kept. */
  private boolean admit(Producer key) {
    TreeSet<Long> kept = epochs.computeIfAbsent(key.producer(), p -> new TreeSet<>());
    if (kept.size() >= keptEpochs) {
      if (key.epoch() < kept.first()) {
        return false;
      }
      var oldest = new Producer(key.producer(), kept.pollFirst());
      runs.remove(oldest);
      if (oldest.equals(lastKey)) {
        lastKey = null;
        lastRuns = null;
      }
      duplicates.remove(oldest);
    }
    kept.add(key.epoch());
    return true;
  }

  /** Whether {@code sequence} of this producer incarnation was seen, or would not be folded (too old an incarnation). */
  boolean contains(String producer, long epoch, long sequence) {
    Runs seen = runsOf(producer, epoch);
    if (seen == null) {
      TreeSet<Long> kept = epochs.get(producer);
      return kept != null && kept.size() >= keptEpochs && epoch < kept.first();
    }
    return seen.contains(sequence);
  }

  /** The runs of one incarnation, or null when none are kept. */
  private Runs runsOf(String producer, long epoch) {
    if (lastKey != null && lastKey.epoch() == epoch && lastKey.producer().equals(producer)) {
      return lastRuns;
    }
    var key = new Producer(producer, epoch);
    Runs seen = runs.get(key);
    if (seen != null) {
      lastKey = key;
      lastRuns = seen;
    }
    return seen;
  }

  /** The numbers missing between the runs of each producer incarnation, by producer. */
  List<SequenceGap> gaps() {
    var gaps = new java.util.ArrayList<SequenceGap>();
    new TreeMap<>(runs).forEach((key, seen) -> {
      Long previousLast = null;
      for (Run run : seen.list()) {
        if (previousLast != null) {
          gaps.add(new SequenceGap(key.producer(), key.epoch(), previousLast + 1, run.first() - 1));
        }
        previousLast = run.last();
      }
    });
    return gaps;
  }

  List<SequenceView> views() {
    return new TreeMap<>(runs).entrySet().stream().map(e -> view(e.getKey(), e.getValue())).toList();
  }

  private SequenceView view(Producer key, Runs seen) {
    List<Run> list = seen.list();
    long lowest = list.getFirst().first();
    long highest = list.getLast().last();
    long present = list.stream().mapToLong(r -> r.last() - r.first() + 1).sum();
    return new SequenceView(
        key.producer(), key.epoch(), lowest, highest, highest - lowest + 1 - present,
        duplicates.getOrDefault(key, 0L));
  }

  /** Restores what {@link #hashPart()} gave: the runs and duplicates of every producer incarnation. */
  void restore(Map<Producer, Seen> parts) {
    lastKey = null;
    lastRuns = null;
    parts.forEach((key, seen) -> {
      runs.put(key, Runs.of(seen.runs()));
      epochs.computeIfAbsent(key.producer(), p -> new TreeSet<>()).add(key.epoch());
      if (seen.duplicates() > 0) {
        duplicates.put(key, seen.duplicates());
      }
    });
  }

  TreeMap<Producer, Seen> hashPart() {
    var parts = new TreeMap<Producer, Seen>();
    runs.forEach(
        (key, seen) ->
            parts.put(
                key,
                new Seen(seen.list(), duplicates.getOrDefault(key, 0L))));
    return parts;
  }
}
