package io.kvfleet.engine.internal;

import java.util.ArrayDeque;

/**
 * Address ranges of released shared-memory objects, kept mapped with private pages so that a late put from a
 * peer that still holds a key lands where nobody reads it ({@link SharedMapping#close}). Bounded: past
 * {@code maxRanges} ranges or {@code maxBytes} of address space the oldest is unmapped, so a worker that
 * registers and releases in a loop cannot use up the agent's address space or its kernel map count (before
 * the bound, 2,000 releases of a 64 GiB object left the agent unable to map anything, while it still looked
 * alive to the fleet). A put to a range released that long ago meets what it met before ranges were parked: a
 * fault, or whatever the kernel has mapped there since (the next mapping may well get the range). A worker that
 * releases 4,096 regions can push a range out on purpose; the worker is already trusted with the agent's memory.
 */
public final class ParkedRanges {
  /** The agent's bound: 16 TiB of address space (an eighth of a 47-bit user space), 4,096 ranges. */
  static final ParkedRanges DEFAULT = new ParkedRanges(4_096, 16L << 40);

  private final int maxRanges;
  private final long maxBytes;
  private final ArrayDeque<long[]> ranges = new ArrayDeque<>();
  private long bytes;

  public ParkedRanges(int maxRanges, long maxBytes) {
    this.maxRanges = maxRanges;
    this.maxBytes = maxBytes;
  }

  /** Keeps {@code [address, address + length)}, which holds private pages now; unmaps the oldest past the bound. */
  public synchronized void park(long address, long length) {
    ranges.addLast(new long[] {address, length});
    bytes += length;
    while (ranges.size() > maxRanges || bytes > maxBytes) {
      long[] oldest = ranges.pollFirst();
      bytes -= oldest[1];
      Libc.munmap(oldest[0], oldest[1]);
    }
  }

  /** How many ranges are kept. */
  public synchronized int size() {
    return ranges.size();
  }
}
