package io.kvfleet.events.snapshot;

import static java.util.Objects.requireNonNull;

import io.kvfleet.events.state.FleetState;
import io.kvfleet.events.state.StateImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;

/**
 * A copy of a {@link FleetState} taken on the thread that owns it, to be hashed and written on
 * any other: the owner pays only for copying its maps and lists (the values are immutable).
 * {@link #restore} reads one back and trusts it only if it rebuilds a state with the hash it
 * was written with.
 */
public final class StateSnapshot {
  private final StateImage image;

  private StateSnapshot(StateImage image) {
    this.image = image;
  }

  /** Copies the state; call it on the thread that owns {@code state}. */
  public static StateSnapshot of(FleetState state) {
    return new StateSnapshot(requireNonNull(state, "state must not be null").image());
  }

  /** Envelopes folded into the state, duplicates included. */
  public long applied() {
    return image.applied();
  }

  /** The state's hash, equal to {@link StateHash#of} the state when the copy was taken. */
  public String hash() {
    return StateHash.of(image);
  }

  /** Writes the binary form. */
  public void writeTo(OutputStream out) throws IOException {
    SnapshotWriter.write(image, out);
  }

  /** The binary form. */
  public byte[] toBytes() {
    var bytes = new ByteArrayOutputStream();
    try {
      writeTo(bytes);
    } catch (IOException e) {
      throw new UncheckedIOException(e); // a ByteArrayOutputStream does not fail
    }
    return bytes.toByteArray();
  }

  /**
   * The state {@code bytes} describe, if they are a snapshot this build can read and the state
   * they rebuild has {@code expectedHash}; otherwise an {@link InvalidSnapshotException} that says why.
   */
  /**
   * Restores a snapshot's state after checking it against what its file's header says: the
   * CRC-32C of the bytes, the state hash and the number of events folded.
   */
  public static FleetState restoreChecked(byte[] bytes, long crc32c, String expectedHash, long applied) {
    var crc = new java.util.zip.CRC32C();
    crc.update(bytes);
    if (crc.getValue() != crc32c) {
      throw new InvalidSnapshotException("CRC-32C of the state is " + crc.getValue() + ", the header says " + crc32c);
    }
    FleetState state = restore(bytes, expectedHash);
    if (state.appliedCount() != applied) {
      throw new InvalidSnapshotException("the state folded " + state.appliedCount() + " events, the header says "
          + applied);
    }
    return state;
  }

  public static FleetState restore(byte[] bytes, String expectedHash) {
    requireNonNull(bytes, "bytes must not be null");
    requireNonNull(expectedHash, "expectedHash must not be null");
    StateImage image = SnapshotReader.read(bytes);
    FleetState state;
    String hash;
    try {
      state = FleetState.restore(image);
      hash = StateHash.of(state);
    } catch (RuntimeException e) {
      throw new InvalidSnapshotException("the snapshot does not rebuild a state: " + e);
    }
    if (!hash.equals(expectedHash)) {
      throw new InvalidSnapshotException(
          "the snapshot rebuilds a state with hash " + hash + ", not the " + expectedHash + " it was written with");
    }
    // The counts by reason must add up to the failures counted, or a changed byte in them could go unnoticed.
    long byReason = image.failuresByReason().values().stream().mapToLong(Long::longValue).sum();
    if (byReason != image.failures().total()) {
      throw new InvalidSnapshotException("the snapshot's failure counts by reason " + image.failuresByReason()
          + " add up to " + byReason + ", not the " + image.failures().total() + " failures it counted");
    }
    return state;
  }
}
