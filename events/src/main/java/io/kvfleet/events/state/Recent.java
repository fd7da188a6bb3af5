package io.kvfleet.events.state;

import java.util.ArrayDeque;
import java.util.List;

/**
 * A history in log order that keeps its last {@code limit} entries and counts them all: what a
 * long-running coordinator remembers of registration failures, skips, decisions and violations
 * (the log keeps every one for replay). Unlimited in a fold that keeps every transfer. Public only
 * so that its {@link Kept}, a part of a {@link StateImage}, can be named by the snapshot package.
 */
public final class Recent<T> {
  private final ArrayDeque<T> kept = new ArrayDeque<>();
  private final int limit;
  private long total;

  Recent(int limit) {
    this.limit = limit;
  }

  void add(T entry) {
    kept.addLast(entry);
    total++;
    if (kept.size() > limit) {
      kept.removeFirst();
    }
  }

  /** The entries kept, oldest first. */
  List<T> list() {
    return List.copyOf(kept);
  }

  /** How many were ever added, the forgotten ones included. */
  long total() {
    return total;
  }

  /** The kept entries from the {@code from}-th ever added on (from 0). */
  List<T> from(long from) {
    List<T> all = list();
    long first = total - all.size(); // the index, among all ever added, of the oldest kept
    return all.subList((int) Math.min(all.size(), Math.max(0, from - first)), all.size());
  }

  Kept<T> image() {
    return new Kept<>(list(), total);
  }

  void restore(Kept<T> image) {
    image.last().forEach(this::add);
    total = image.total();
  }

  /**
   * A {@link Recent} as its state's hash covers it and a snapshot stores it.
   *
   * @param last the entries kept, oldest first
   * @param total how many were ever added
   */
  public record Kept<T>(List<T> last, long total) {}
}
