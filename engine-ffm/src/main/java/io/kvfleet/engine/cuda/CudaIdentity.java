package io.kvfleet.engine.cuda;

import io.kvfleet.engine.EngineException;
import java.io.IOException;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Who a cuda worker is: its process and the kernel's boot id. CUDA IPC reaches only processes on
 * the same host; the same process needs no IPC at all.
 */
record CudaIdentity(int pid, String bootId) {
  private static final byte VERSION = 1;

  static CudaIdentity self() {
    return new CudaIdentity((int) ProcessHandle.current().pid(), readBootId());
  }

  boolean sameHost(CudaIdentity other) {
    return bootId.equals(other.bootId);
  }

  boolean sameProcess(CudaIdentity other) {
    return sameHost(other) && pid == other.pid;
  }

  byte[] encode() {
    ByteBuffer out = ByteBuffer.allocate(1 + 4 + Strings.size(bootId));
    out.put(VERSION).putInt(pid);
    Strings.put(out, bootId);
    return out.array();
  }

  static CudaIdentity decode(byte[] bytes) {
    try {
      ByteBuffer in = ByteBuffer.wrap(bytes);
      byte version = in.get();
      if (version != VERSION) {
        throw EngineException.malformed("cuda worker address", "unsupported version " + version);
      }
      return new CudaIdentity(in.getInt(), Strings.get(in));
    } catch (BufferUnderflowException | NegativeArraySizeException e) {
      throw EngineException.malformed("cuda worker address", bytes.length + " bytes, truncated");
    }
  }

  private static String readBootId() {
    try {
      return Files.readString(Path.of("/proc/sys/kernel/random/boot_id")).trim();
    } catch (IOException e) {
      return "unknown";
    }
  }

  /** Short length-prefixed UTF-8 strings. */
  static final class Strings {
    private Strings() {}

    static int size(String text) {
      return 2 + text.getBytes(StandardCharsets.UTF_8).length;
    }

    static void put(ByteBuffer out, String text) {
      byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
      out.putShort((short) bytes.length).put(bytes);
    }

    static String get(ByteBuffer in) {
      byte[] bytes = new byte[in.getShort()];
      in.get(bytes);
      return new String(bytes, StandardCharsets.UTF_8);
    }
  }
}
