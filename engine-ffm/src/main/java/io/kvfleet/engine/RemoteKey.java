package io.kvfleet.engine;

import static java.util.Objects.requireNonNull;

import io.kvfleet.engine.internal.Hex;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Base64;

/**
 * Everything a peer needs to reach one registered region: the backend, the region's address and
 * length in the owner's address space, and the backend's packed key (a UCX rkey, or the host
 * backend's grant name and range).
 */
public record RemoteKey(String backend, long address, long length, byte[] packed) {
  private static final int MAGIC = 0x4b56524b; // "KVRK"

  public RemoteKey {
    requireNonNull(backend, "backend must not be null");
    packed = requireNonNull(packed, "packed must not be null").clone();
    if (length < 0) {
      throw new IllegalArgumentException("length must not be negative: " + length);
    }
  }

  @Override
  public byte[] packed() {
    return packed.clone();
  }

  /** The self-describing bytes a control plane publishes. */
  public byte[] toBytes() {
    ByteBuffer out = Wire.start(MAGIC, backend, 8 + 8 + 4 + packed.length);
    out.putLong(address).putLong(length).putInt(packed.length).put(packed);
    return out.array();
  }

  /** {@link #toBytes()} as base64, the form events carry. */
  public String toBase64() {
    return Base64.getEncoder().encodeToString(toBytes());
  }

  /** Parses {@link #toBytes()}; throws {@link EngineException} when malformed. */
  public static RemoteKey fromBytes(byte[] bytes) {
    ByteBuffer in = ByteBuffer.wrap(bytes);
    String backend = Wire.readHeader(in, MAGIC, "remote key");
    try {
      long address = in.getLong();
      long length = in.getLong();
      if (length < 0) {
        throw EngineException.malformed("remote key", "negative length " + length);
      }
      return new RemoteKey(backend, address, length, Wire.readBytes(in, "remote key"));
    } catch (BufferUnderflowException e) {
      throw EngineException.malformed("remote key", "truncated range");
    }
  }

  /** Parses {@link #toBase64()}. */
  public static RemoteKey fromBase64(String text) {
    try {
      return fromBytes(Base64.getDecoder().decode(text));
    } catch (IllegalArgumentException e) {
      throw EngineException.malformed("remote key", "not base64: " + e.getMessage());
    }
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof RemoteKey that
        && backend.equals(that.backend)
        && address == that.address
        && length == that.length
        && Arrays.equals(packed, that.packed);
  }

  @Override
  public int hashCode() {
    return 31 * (31 * backend.hashCode() + Long.hashCode(address)) + Arrays.hashCode(packed);
  }

  @Override
  public String toString() {
    return "RemoteKey[" + backend + " " + Hex.range(address, length) + ", " + packed.length + " key bytes]";
  }
}
