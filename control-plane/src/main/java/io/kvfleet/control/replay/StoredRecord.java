package io.kvfleet.control.replay;

import static java.util.Objects.requireNonNull;

import io.kvfleet.events.codec.Decoded;
import io.kvfleet.events.codec.TypeHeader;
import io.kvfleet.events.codec.EventCodec;
import io.kvfleet.events.replay.LogPosition;
import io.kvfleet.events.replay.LogRecord;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * A Kafka record exactly as the broker held it, as an export stores it: nothing is decoded away.
 *
 * @param timestamp the record timestamp, Unix epoch milliseconds
 * @param key the key bytes; null when the record has no key
 * @param value the value bytes; null for a tombstone
 */
public record StoredRecord(
    String topic, int partition, long offset, long timestamp, byte[] key, List<Header> headers, byte[] value) {
  public StoredRecord {
    requireNonNull(topic, "topic must not be null");
    headers = List.copyOf(requireNonNull(headers, "headers must not be null"));
  }

  /**
   * One record header; its value may be null. Read-only: records an export reader reads in a row share
   * their headers' objects and bytes where the lines repeat them ({@code LineScan}).
   */
  public record Header(String name, byte[] value) {
    public Header {
      requireNonNull(name, "name must not be null");
    }
  }

  /** The record a consumer read. */
  public static StoredRecord of(ConsumerRecord<byte[], byte[]> r) {
    var kafka = r.headers().toArray();
    var headers = new Header[kafka.length];
    for (int k = 0; k < kafka.length; k++) {
      headers[k] = new Header(kafka[k].key(), kafka[k].value());
    }
    // List.of is immutable already, so the constructor's List.copyOf keeps it instead of copying.
    return new StoredRecord(r.topic(), r.partition(), r.offset(), r.timestamp(), r.key(), List.of(headers),
        r.value());
  }

  /** Where it is in the log. */
  public LogPosition position() {
    return new LogPosition(topic, partition, offset);
  }

  /**
   * The longest key a replay reads as a key: every fleet writer keys its records by a node or transfer id. A record
   * with a longer one is no fleet record; its key is kept to this many bytes and the record is malformed.
   */
  public static final int LONGEST_KEY = 64 * 1024;

  /** The key as text, empty when there is none; one longer than {@link #LONGEST_KEY} cut there. */
  public String keyText() {
    return key == null ? "" : new String(key, 0, Math.min(key.length, LONGEST_KEY), StandardCharsets.UTF_8);
  }

  /** Its key's, value's and headers' bytes. */
  long bytes() {
    long bytes = (key == null ? 0 : key.length) + (value == null ? 0 : value.length);
    for (var h : headers) {
      bytes += h.name().length() + (h.value() == null ? 0 : h.value().length);
    }
    return bytes;
  }

  /** The record as replay reads it, its value decoded by {@code codec}. */
  public LogRecord decode(EventCodec codec) {
    Decoded value = key != null && key.length > LONGEST_KEY
        ? new Decoded.Malformed("a key of " + key.length + " bytes: no fleet writer keys a record with more than "
            + LONGEST_KEY, new byte[0])
        : this.value == null ? new Decoded.Malformed("empty record", new byte[0])
        : TypeHeader.checked(codec.decode(this.value), typeHeader(), this.value);
    return new LogRecord(position(), Instant.ofEpochMilli(timestamp), keyText(), value);
  }

  /** The type its {@code ce_type} header names (the last one, as Kafka's lastHeader reads it), if any. */
  private java.util.Optional<String> typeHeader() {
    for (int i = headers.size() - 1; i >= 0; i--) {
      var header = headers.get(i);
      if (header.name().equals(TypeHeader.NAME)) {
        return header.value() == null ? java.util.Optional.empty()
            : java.util.Optional.of(new String(header.value(), StandardCharsets.UTF_8));
      }
    }
    return java.util.Optional.empty();
  }
}
