package io.kvfleet.events.state;

import java.util.Comparator;
import java.util.PriorityQueue;

/**
 * The ended transfers a forgetting fold holds, by when they ended (epoch millis, what the kept window
 * is measured in): what to forget first. Transfers end nearly in fold order, so an end no earlier
 * than the last one queued goes to the back of a ring in order (one step; the earliest is at its
 * front, and the times lie side by side in one array, which the check on every coordinator event
 * reads); only an end dated before it (another producer's clock, a restore) goes to a heap. The
 * earliest end overall is the earlier of the two fronts.
 */
final class EndQueue {
  /** An end that came out of order: when, and the transfer's id. */
  private record Late(long endedAtMillis, String transferId) {}

  private long[] times = new long[64];
  private String[] ids = new String[64];
  private int front;
  private int size;
  private final PriorityQueue<Late> late = new PriorityQueue<>(Comparator.comparingLong(Late::endedAtMillis));

  void add(long endedAtMillis, String transferId) {
    if (size > 0 && times[slot(size - 1)] > endedAtMillis) {
      late.add(new Late(endedAtMillis, transferId));
      return;
    }
    if (size == times.length) {
      grow();
    }
    times[slot(size)] = endedAtMillis;
    ids[slot(size)] = transferId;
    size++;
  }

  /** Takes out one transfer that ended before {@code cutoffMillis} and gives its id; null when none did. */
  String pollEndedBefore(long cutoffMillis) {
    if (size > 0 && times[front] < cutoffMillis) {
      String id = ids[front];
      ids[front] = null;
      front = slot(1);
      size--;
      return id;
    }
    Late earliestLate = late.peek();
    if (earliestLate != null && earliestLate.endedAtMillis() < cutoffMillis) {
      return late.poll().transferId();
    }
    return null;
  }

  private int slot(int index) {
    return (front + index) & (times.length - 1); // the length stays a power of two
  }

  private void grow() {
    long[] moreTimes = new long[times.length * 2];
    String[] moreIds = new String[times.length * 2];
    for (int i = 0; i < size; i++) {
      moreTimes[i] = times[slot(i)];
      moreIds[i] = ids[slot(i)];
    }
    times = moreTimes;
    ids = moreIds;
    front = 0;
  }
}
