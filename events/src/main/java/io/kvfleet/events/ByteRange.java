package io.kvfleet.events;

/** One contiguous piece of a transfer: {@code length} bytes from a source offset to a destination offset. */
public record ByteRange(long sourceOffset, long destinationOffset, long length) {
  public ByteRange {
    if (sourceOffset < 0 || destinationOffset < 0) {
      throw new IllegalArgumentException(
          "offsets must not be negative: source " + sourceOffset + ", destination " + destinationOffset);
    }
    if (length <= 0) {
      throw new IllegalArgumentException("length must be positive: " + length);
    }
  }

  /**
   * Whether the range lies inside a source of {@code sourceLength} bytes and a destination of
   * {@code destinationLength} bytes. Never overflows: an offset near {@code Long.MAX_VALUE} does not
   * wrap round to look small.
   */
  public boolean fitsIn(long sourceLength, long destinationLength) {
    return sourceFitsIn(sourceLength) && destinationOffset <= destinationLength
        && length <= destinationLength - destinationOffset;
  }

  /** Whether the source side lies inside a source of {@code sourceLength} bytes (never overflows). */
  public boolean sourceFitsIn(long sourceLength) {
    return sourceOffset <= sourceLength && length <= sourceLength - sourceOffset;
  }
}
