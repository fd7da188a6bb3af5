package io.kvfleet.engine.ucx;

import static java.util.Objects.requireNonNull;

import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.util.Optional;

/**
 * The question a UCX backend asks a peer's target worker, over the endpoint it will write
 * through, before it uses a remote key: "did you register a region with exactly this rkey that
 * covers this range, and are you the worker at this address?" And the answer.
 *
 * @param id the asker's random number for the question, repeated in the answer
 * @param address the first byte of the range, in the peer's address space
 * @param length the range's length
 * @param workerDigest SHA-256 of the worker address the asker connected to
 * @param rkey the packed rkey the asker was given
 */
record RegionQuery(long id, long address, long length, byte[] workerDigest, byte[] rkey) {
  /** The active-message id of a question (to a target worker). */
  static final int QUERY = 75;
  /** The active-message id of an answer (to an initiator worker). */
  static final int ANSWER = 76;
  /** Longer questions are not read: a packed rkey here is a few hundred bytes. */
  static final int MAX_BYTES = 8192;
  private static final int MAGIC = 0x4b565251; // "KVRQ"

  RegionQuery {
    requireNonNull(workerDigest, "workerDigest must not be null");
    requireNonNull(rkey, "rkey must not be null");
  }

  /** What the peer's worker says. */
  enum Answer {
    /** It registered a region with this rkey that covers the range, and it is that worker. */
    CONFIRMED,
    /** No live region of it has this rkey and covers the range. */
    NOT_REGISTERED,
    /** The address the asker connected to is not this worker's (a forged or mixed address). */
    NOT_THIS_WORKER
  }

  byte[] encode() {
    ByteBuffer out = ByteBuffer.allocate(4 + 8 * 3 + 4 + workerDigest.length + 4 + rkey.length);
    out.putInt(MAGIC).putLong(id).putLong(address).putLong(length);
    out.putInt(workerDigest.length).put(workerDigest).putInt(rkey.length).put(rkey);
    return out.array();
  }

  /** The question, or empty when the bytes are not one. */
  static Optional<RegionQuery> decode(byte[] bytes) {
    try {
      ByteBuffer in = ByteBuffer.wrap(bytes);
      if (in.getInt() != MAGIC) {
        return Optional.empty();
      }
      long id = in.getLong();
      long address = in.getLong();
      long length = in.getLong();
      byte[] digest = take(in);
      byte[] rkey = take(in);
      return in.hasRemaining() ? Optional.empty()
          : Optional.of(new RegionQuery(id, address, length, digest, rkey));
    } catch (BufferUnderflowException | IllegalArgumentException e) {
      return Optional.empty();
    }
  }

  static byte[] encodeAnswer(long id, Answer answer) {
    return ByteBuffer.allocate(12).putLong(id).putInt(answer.ordinal()).array();
  }

  /** The id of an answer's question, or empty when the bytes are not an answer. */
  static Optional<Long> answerId(byte[] bytes) {
    return bytes.length == 12 && answerOf(bytes).isPresent()
        ? Optional.of(ByteBuffer.wrap(bytes).getLong()) : Optional.empty();
  }

  static Optional<Answer> answerOf(byte[] bytes) {
    if (bytes.length != 12) {
      return Optional.empty();
    }
    int ordinal = ByteBuffer.wrap(bytes).getInt(8);
    Answer[] all = Answer.values();
    return ordinal >= 0 && ordinal < all.length ? Optional.of(all[ordinal]) : Optional.empty();
  }

  private static byte[] take(ByteBuffer in) {
    int n = in.getInt();
    if (n < 0 || n > in.remaining()) {
      throw new IllegalArgumentException("length " + n);
    }
    byte[] out = new byte[n];
    in.get(out);
    return out;
  }
}
