package io.kvfleet.events.state;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The sequence numbers seen of one producer incarnation, as maximal runs of consecutive numbers.
 * The highest run is held apart in two longs: an incarnation's numbers mostly come in order, so most
 * of them only extend it, with no lookup and nothing boxed; the runs under it (gaps, late numbers)
 * stay in a sorted map, so numbers in any order cost a logarithm, never a shift.
 */
final class Runs {
  /** Every run under the highest, first to last, none adjacent to another. */
  private final TreeMap<Long, Long> under = new TreeMap<>();
  private long topFirst;
  private long topLast;
  private boolean empty = true;

  /** Runs restored from {@link #list()}'s form, in ascending order. */
  static Runs of(List<Sequences.Run> runs) {
    var restored = new Runs();
    for (Sequences.Run run : runs) {
      if (!restored.empty) {
        restored.under.put(restored.topFirst, restored.topLast);
      }
      restored.topFirst = run.first();
      restored.topLast = run.last();
      restored.empty = false;
    }
    return restored;
  }

  boolean contains(long sequence) {
    if (empty) {
      return false;
    }
    if (sequence >= topFirst) {
      return sequence <= topLast;
    }
    Map.Entry<Long, Long> run = under.floorEntry(sequence);
    return run != null && run.getValue() >= sequence;
  }

  /** Adds a number; false when it was seen before. */
  boolean add(long sequence) {
    if (empty) {
      topFirst = sequence;
      topLast = sequence;
      empty = false;
      return true;
    }
    if (sequence >= topFirst) {
      if (sequence <= topLast) {
        return false;
      }
      if (sequence > topLast + 1) {
        under.put(topFirst, topLast); // a gap: the highest run is a new one
        topFirst = sequence;
      }
      topLast = sequence;
      return true;
    }
    if (sequence == topFirst - 1) {
      Map.Entry<Long, Long> below = under.lastEntry(); // ends at sequence - 1 at the most: runs are not adjacent
      if (below != null && below.getValue() == sequence - 1) {
        under.remove(below.getKey());
        topFirst = below.getKey();
      } else {
        topFirst = sequence;
      }
      return true;
    }
    return addUnder(sequence);
  }

  /** Adds a number more than one under the highest run, among the runs under it. */
  private boolean addUnder(long sequence) {
    Map.Entry<Long, Long> below = under.floorEntry(sequence);
    if (below != null && below.getValue() >= sequence) {
      return false;
    }
    long first = below != null && below.getValue() == sequence - 1 ? below.getKey() : sequence;
    long last = sequence;
    Long after = under.remove(sequence + 1);
    if (after != null) {
      last = after;
    }
    under.put(first, last);
    return true;
  }

  /** The runs, lowest first. */
  List<Sequences.Run> list() {
    var runs = new ArrayList<Sequences.Run>(under.size() + 1);
    under.forEach((first, last) -> runs.add(new Sequences.Run(first, last)));
    if (!empty) {
      runs.add(new Sequences.Run(topFirst, topLast));
    }
    return List.copyOf(runs);
  }
}
