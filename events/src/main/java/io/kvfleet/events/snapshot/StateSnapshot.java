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
   * Restores a snapshot's state after checking it against what its file's header says: the
   * CRC-32C of the bytes, the state hash and the number of events folded.
   */
  public static FleetState restoreChecked(byte[] bytes, long crc32c, String expectedHash, long applied) {
    checkCrc(bytes, crc32c);
    return checkApplied(restore(bytes, expectedHash), applied);
  }

  /**
   * Restores a snapshot whose bytes a CRC-32C and their origin vouch for (an export's own snapshot,
   * a coordinator's signed one), without walking the rebuilt state for its hash: the CRC catches a
   * changed byte, the caller a foreign snapshot, and every structural check of the reader still
   * holds. {@code replay --until} from a snapshot of 200,000 transfers spent a third of its
   * restore on that walk ({@code BENCHMARKS.md}, time travel); the state's hash is taken once, of
   * the state a replay reaches.
   */
  public static FleetState restoreByChecksum(byte[] bytes, long crc32c, long applied) {
    requireNonNull(bytes, "bytes must not be null");
    checkCrc(bytes, crc32c);
    StateImage image = SnapshotReader.read(bytes);
    checkFailureCounts(image);
    return checkApplied(rebuild(image), applied);
  }

  /**
   * The state {@code bytes} describe, if they are a snapshot this build can read and the state
   * they rebuild has {@code expectedHash}; otherwise an {@link InvalidSnapshotException} that says why.
   */
  public static FleetState restore(byte[] bytes, String expectedHash) {
    requireNonNull(bytes, "bytes must not be null");
    requireNonNull(expectedHash, "expectedHash must not be null");
    StateImage image = SnapshotReader.read(bytes);
    FleetState state = rebuild(image);
    String hash;
    try {
      hash = StateHash.of(state);
    } catch (RuntimeException e) {
      throw new InvalidSnapshotException("the snapshot does not rebuild a state: " + e);
    }
    if (!hash.equals(expectedHash)) {
      throw new InvalidSnapshotException(
          "the snapshot rebuilds a state with hash " + hash + ", not the " + expectedHash + " it was written with");
    }
    checkFailureCounts(image);
    return state;
  }

  private static FleetState rebuild(StateImage image) {
    try {
      return FleetState.restore(image);
    } catch (RuntimeException e) {
      throw new InvalidSnapshotException("the snapshot does not rebuild a state: " + e);
    }
  }

  private static void checkCrc(byte[] bytes, long crc32c) {
    var crc = new java.util.zip.CRC32C();
    crc.update(bytes);
    if (crc.getValue() != crc32c) {
      throw new InvalidSnapshotException("CRC-32C of the state is " + crc.getValue() + ", the header says " + crc32c);
    }
  }

  private static FleetState checkApplied(FleetState state, long applied) {
    if (state.appliedCount() != applied) {
      throw new InvalidSnapshotException("the state folded " + state.appliedCount() + " events, the header says "
          + applied);
    }
    return state;
  }

  /** The counts by reason must add up to the failures counted, or a changed byte in them could go unnoticed. */
  private static void checkFailureCounts(StateImage image) {
    long byReason = image.failuresByReason().values().stream().mapToLong(Long::longValue).sum();
    if (byReason != image.failures().total()) {
      throw new InvalidSnapshotException("the snapshot's failure counts by reason " + image.failuresByReason()
          + " add up to " + byReason + ", not the " + image.failures().total() + " failures it counted");
    }
  }
}
