package io.kvfleet.engine.host;

import io.kvfleet.engine.EngineException;
import io.kvfleet.engine.internal.Libc;
import java.io.IOException;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Who a host-backend worker is: its process id and the kernel's boot id, which tells whether two
 * workers share a host (and so can reach each other with process_vm_writev).
 */
record HostIdentity(int pid, String bootId) {

  static HostIdentity self() {
    return new HostIdentity(Libc.getpid(), readBootId());
  }

  byte[] encode() {
    byte[] boot = bootId.getBytes(StandardCharsets.US_ASCII);
    return ByteBuffer.allocate(4 + 2 + boot.length).putInt(pid).putShort((short) boot.length)
        .put(boot).array();
  }

  static HostIdentity decode(byte[] bytes) {
    try {
      ByteBuffer in = ByteBuffer.wrap(bytes);
      int pid = in.getInt();
      byte[] boot = new byte[in.getShort()];
      in.get(boot);
      return new HostIdentity(pid, new String(boot, StandardCharsets.US_ASCII));
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
