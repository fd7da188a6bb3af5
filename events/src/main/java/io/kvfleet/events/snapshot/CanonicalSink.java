package io.kvfleet.events.snapshot;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Arrays;

/**
 * Where {@link Canonical} writes: a buffer that drains into a digest when full, or grows when it
 * collects the bytes. Numbers are big-endian as {@code DataOutputStream} writes them, straight into
 * the buffer; a string is its tag, the length of its UTF-8 and the UTF-8. The form is millions of
 * small writes: a stream's lock per write, and a second array per string, were much of its cost.
 */
final class CanonicalSink {
  private static final VarHandle INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);
  private static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);

  private final MessageDigest digest;
  private byte[] buffer;
  private int used;

  private CanonicalSink(MessageDigest digest, int size) {
    this.digest = digest;
    this.buffer = new byte[size];
  }

  /** A sink that feeds {@code digest}. */
  static CanonicalSink into(MessageDigest digest) {
    return new CanonicalSink(digest, 1 << 16);
  }

  /** A sink that keeps what it is given, for {@link #toByteArray}. */
  static CanonicalSink collecting() {
    return new CanonicalSink(null, 64);
  }

  /** {@code tag} and {@code s} as {@link #writeString} writes them. */
  static byte[] tagged(char tag, String s) {
    var bytes = collecting();
    bytes.writeString(tag, s);
    return bytes.toByteArray();
  }

  void writeByte(int b) {
    room(1);
    buffer[used++] = (byte) b;
  }

  void writeInt(int n) {
    room(Integer.BYTES);
    INT.set(buffer, used, n);
    used += Integer.BYTES;
  }

  void writeLong(long n) {
    room(Long.BYTES);
    LONG.set(buffer, used, n);
    used += Long.BYTES;
  }

  void write(byte[] bytes) {
    if (digest != null && bytes.length > buffer.length) {
      drain();
      digest.update(bytes);
      return;
    }
    room(bytes.length);
    System.arraycopy(bytes, 0, buffer, used, bytes.length);
    used += bytes.length;
  }

  /** {@code tag}, then the length of the UTF-8 of {@code s}, then that UTF-8. */
  void writeString(char tag, String s) {
    writeTagged(tag, s.getBytes(StandardCharsets.UTF_8));
  }

  /**
   * {@code tag}, then the length of {@code utf8}, then {@code utf8}. {@code getBytes} is faster than a loop
   * over the chars that writes an ASCII string straight here (the JDK's checks and copies are vectorized):
   * measured, so a string still costs one array.
   */
  void writeTagged(char tag, byte[] utf8) {
    room(5);
    buffer[used] = (byte) tag;
    INT.set(buffer, used + 1, utf8.length);
    used += 5;
    write(utf8);
  }

  /** Makes room for {@code n} more bytes (at most the buffer's size when feeding a digest). */
  private void room(int n) {
    if (buffer.length - used >= n) {
      return;
    }
    if (digest != null) {
      drain();
    } else {
      buffer = Arrays.copyOf(buffer, Math.max(buffer.length * 2, used + n));
    }
  }

  /** Feeds what is buffered to the digest. */
  void drain() {
    digest.update(buffer, 0, used);
    used = 0;
  }

  /** The bytes collected. */
  byte[] toByteArray() {
    return Arrays.copyOf(buffer, used);
  }
}
