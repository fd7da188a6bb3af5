package io.kvfleet.engine.host;

import io.kvfleet.engine.EngineException;
import java.io.IOException;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Who a host-backend worker is: the random token its grants are named with, and the kernel's boot
 * id, which tells whether two workers share a host (and so the same {@code /dev/shm}). No pid: a
 * worker reaches a peer's memory through the peer's grants, never through its process.
 */
record HostIdentity(long token, String bootId) {

  static HostIdentity self(long token) {
    return new HostIdentity(token, readBootId());
  }

  byte[] encode() {
    byte[] boot = bootId.getBytes(StandardCharsets.US_ASCII);
    return ByteBuffer.allocate(8 + 2 + boot.length).putLong(token).putShort((short) boot.length)
        .put(boot).array();
  }

  static HostIdentity decode(byte[] bytes) {
    try {
      ByteBuffer in = ByteBuffer.wrap(bytes);
      long token = in.getLong();
      byte[] boot = new byte[in.getShort()];
      in.get(boot);
      return new HostIdentity(token, new String(boot, StandardCharsets.US_ASCII));
    } catch (BufferUnderflowException | NegativeArraySizeException e) {
      throw EngineException.malformed("host worker address", bytes.length + " bytes");
    }
  }

  private static String readBootId() {
    try {
      return Files.readString(Path.of("/proc/sys/kernel/random/boot_id")).trim();
    } catch (IOException e) {
      return "unknown";
    }
  }
}
