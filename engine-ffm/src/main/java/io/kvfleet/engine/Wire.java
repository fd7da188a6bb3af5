package io.kvfleet.engine;

import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/** The small self-describing binary form of exported addresses and keys (magic, version, fields). */
final class Wire {
  private Wire() {}

  static final byte VERSION = 1;

  static ByteBuffer start(int magic, String backend, int extra) {
    byte[] name = backend.getBytes(StandardCharsets.UTF_8);
    ByteBuffer out = ByteBuffer.allocate(4 + 1 + 2 + name.length + extra);
    out.putInt(magic).put(VERSION).putShort((short) name.length).put(name);
    return out;
  }

  static String readHeader(ByteBuffer in, int magic, String what) {
    try {
      int found = in.getInt();
      if (found != magic) {
        throw EngineException.malformed(what, "bad magic 0x" + Integer.toHexString(found));
      }
      byte version = in.get();
      if (version != VERSION) {
        throw EngineException.malformed(what, "unsupported version " + version);
      }
      byte[] name = new byte[in.getShort()];
      in.get(name);
      return new String(name, StandardCharsets.UTF_8);
    } catch (BufferUnderflowException | NegativeArraySizeException e) {
      throw EngineException.malformed(what, "truncated header");
    }
  }

  static byte[] readBytes(ByteBuffer in, String what) {
    try {
      int length = in.getInt();
      if (length < 0 || length > in.remaining()) {
        throw EngineException.malformed(what, "length " + length + " past the end");
      }
      byte[] bytes = new byte[length];
      in.get(bytes);
      return bytes;
    } catch (BufferUnderflowException e) {
      throw EngineException.malformed(what, "truncated body");
    }
  }
}
