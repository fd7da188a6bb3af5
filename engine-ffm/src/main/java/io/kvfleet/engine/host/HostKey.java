package io.kvfleet.engine.host;

import io.kvfleet.engine.EngineException;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;

/** The host backend's packed key: the owning process and the range in its address space. */
record HostKey(int pid, long address, long length) {
  static final int SIZE = 4 + 8 + 8;

  byte[] encode() {
    return ByteBuffer.allocate(SIZE).putInt(pid).putLong(address).putLong(length).array();
  }

  static HostKey decode(byte[] bytes) {
    try {
      ByteBuffer in = ByteBuffer.wrap(bytes);
      HostKey key = new HostKey(in.getInt(), in.getLong(), in.getLong());
      if (key.length < 0 || in.hasRemaining()) {
        throw EngineException.malformed("host key", bytes.length + " bytes, length " + key.length);
      }
      return key;
    } catch (BufferUnderflowException e) {
      throw EngineException.malformed("host key", bytes.length + " bytes, need " + SIZE);
    }
  }
}
