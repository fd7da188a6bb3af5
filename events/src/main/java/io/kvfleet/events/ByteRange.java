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

  /** The first source byte past this range. */
  public long sourceEnd() {
    return sourceOffset + length;
  }

  /** The first destination byte past this range. */
  public long destinationEnd() {
    return destinationOffset + length;
  }
}
