package io.kvfleet.engine.host;

import io.kvfleet.engine.EngineException;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * The host backend's packed key: the grant that covers the region and the region's range in the
 * granted file. No pid and no address: a key names memory only through a grant its owner made.
 */
record HostKey(String grant, long offset, long length) {
  private static final int MAX_NAME = 64;

  byte[] encode() {
    byte[] name = grant.getBytes(StandardCharsets.US_ASCII);
    return ByteBuffer.allocate(2 + name.length + 8 + 8).putShort((short) name.length).put(name)
        .putLong(offset).putLong(length).array();
  }

  static HostKey decode(byte[] bytes) {
    try {
      ByteBuffer in = ByteBuffer.wrap(bytes);
      int size = in.getShort();
      if (size < 0 || size > MAX_NAME) {
        throw EngineException.malformed("host key", bytes.length + " bytes, grant name of " + size);
      }
      byte[] name = new byte[size];
      in.get(name);
      HostKey key = new HostKey(new String(name, StandardCharsets.US_ASCII), in.getLong(), in.getLong());
      if (key.offset < 0 || key.length < 0 || in.hasRemaining()) {
        throw EngineException.malformed("host key", bytes.length + " bytes, offset " + key.offset
            + " length " + key.length);
      }
      return key;
    } catch (BufferUnderflowException e) {
      throw EngineException.malformed("host key", bytes.length + " bytes, truncated");
    }
  }
}
