package io.kvfleet.control.protocol;

import io.kvfleet.control.Json;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.eventbus.MessageCodec;
import java.nio.charset.StandardCharsets;

/**
 * A typed EventBus codec for one immutable record type: the value itself within a JVM, its JSON
 * (length-prefixed) between cluster members. A body that does not decode fails with the reason.
 */
final class RecordCodec<T extends Record> implements MessageCodec<T, T> {
  private final Class<T> type;

  RecordCodec(Class<T> type) {
    this.type = type;
  }

  @Override
  public void encodeToWire(Buffer buffer, T value) {
    byte[] json = Json.write(value).getBytes(StandardCharsets.UTF_8);
    buffer.appendInt(json.length).appendBytes(json);
  }

  @Override
  public T decodeFromWire(int position, Buffer buffer) {
    int length = buffer.getInt(position);
    int start = position + Integer.BYTES;
    return Json.read(buffer.getString(start, start + length, StandardCharsets.UTF_8.name()), type);
  }

  /** Records are immutable: a local receiver gets the sender's value. */
  @Override
  public T transform(T value) {
    return value;
  }

  @Override
  public String name() {
    return "kvfleet." + type.getSimpleName();
  }

  @Override
  public byte systemCodecID() {
    return -1;
  }
}
