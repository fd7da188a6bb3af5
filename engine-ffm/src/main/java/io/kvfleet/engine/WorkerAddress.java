package io.kvfleet.engine;

import static java.util.Objects.requireNonNull;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Base64;

/**
 * What a peer needs to connect to one backend of this engine (a UCX worker address, or the host
 * backend's pid and boot id).
 */
public record WorkerAddress(String backend, byte[] bytes) {
  private static final int MAGIC = 0x4b565741; // "KVWA"

  public WorkerAddress {
    requireNonNull(backend, "backend must not be null");
    bytes = requireNonNull(bytes, "bytes must not be null").clone();
  }

  @Override
  public byte[] bytes() {
    return bytes.clone();
  }

  /** The self-describing form a control plane publishes. */
  public byte[] toBytes() {
    ByteBuffer out = Wire.start(MAGIC, backend, 4 + bytes.length);
    out.putInt(bytes.length).put(bytes);
    return out.array();
  }

  /** {@link #toBytes()} as base64, the form events carry. */
  public String toBase64() {
    return Base64.getEncoder().encodeToString(toBytes());
  }

  /** Parses {@link #toBytes()}; throws {@link EngineException} when malformed. */
  public static WorkerAddress fromBytes(byte[] encoded) {
    ByteBuffer in = ByteBuffer.wrap(encoded);
    String backend = Wire.readHeader(in, MAGIC, "worker address");
    return new WorkerAddress(backend, Wire.readBytes(in, "worker address"));
  }

  /** Parses {@link #toBase64()}. */
  public static WorkerAddress fromBase64(String text) {
    try {
      return fromBytes(Base64.getDecoder().decode(text));
    } catch (IllegalArgumentException e) {
      throw EngineException.malformed("worker address", "not base64: " + e.getMessage());
    }
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof WorkerAddress that
        && backend.equals(that.backend)
        && Arrays.equals(bytes, that.bytes);
  }

  @Override
  public int hashCode() {
    return 31 * backend.hashCode() + Arrays.hashCode(bytes);
  }

  @Override
  public String toString() {
    return "WorkerAddress[" + backend + ", " + bytes.length + " bytes]";
  }
}
