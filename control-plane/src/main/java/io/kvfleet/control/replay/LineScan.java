package io.kvfleet.control.replay;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

/**
 * Reads an export line the way {@link ExportWriter} writes it, without a JSON parser: the fields in
 * the writer's order, no spaces, strings of printable ASCII with nothing escaped, numbers as plain
 * digits, the value embedded last. Any other line, escapes, base64, {@code malformed}, a hand-edited
 * line, gives null and {@link ExportReader} parses it with Jackson; for every line this accepts, the
 * record is the one Jackson's path reads ({@code LineScanTest}). One per reader: not thread-safe.
 *
 * <p>Why: the outer object was about 0.9 us of a record's 3 to 5 us on the replay threads, a parser
 * built per line for seven fields.
 */
final class LineScan {
  private static final byte[] TOPIC = ascii("{\"topic\":");
  private static final byte[] PARTITION = ascii(",\"partition\":");
  private static final byte[] OFFSET = ascii(",\"offset\":");
  private static final byte[] TIMESTAMP = ascii(",\"timestamp\":");
  private static final byte[] KEY = ascii(",\"key\":");
  private static final byte[] NULL = ascii("null");
  private static final byte[] HEADERS = ascii(",\"headers\":[");
  private static final byte[] NAME = ascii("{\"name\":");
  private static final byte[] HEADER_VALUE = ascii(",\"value\":");
  private static final byte[] VALUE = ascii("],\"value\":");
  private static final byte[] TOMBSTONE = ascii("null}");

  private byte[] b;
  private int pos;
  private int end;
  // A log has few topics, and its records mostly repeat their headers: the last ones are kept.
  private byte[] lastTopicBytes = new byte[0];
  private String lastTopic;
  private byte[] lastHeaderBytes = new byte[0];
  private List<StoredRecord.Header> lastHeaders;
  private int[] bounds = new int[16]; // four per header: name from, to, value from, to (-1: null)

  /** The record on {@code l}, or null when the line is not exactly as the writer writes one. */
  StoredRecord read(Lines.Line l) {
    b = l.bytes();
    pos = l.offset();
    end = l.offset() + l.length();
    if (!literal(TOPIC)) {
      return null;
    }
    String topic = topic();
    long partition = literal(PARTITION) ? digits(Integer.MAX_VALUE) : -1;
    long offset = partition >= 0 && literal(OFFSET) ? digits(Long.MAX_VALUE) : -1;
    long timestamp = offset >= 0 && literal(TIMESTAMP) ? digits(Long.MAX_VALUE) : -1;
    if (topic == null || timestamp < 0 || !literal(KEY)) {
      return null;
    }
    boolean keyNull = literal(NULL);
    int keyFrom = keyNull ? pos : plain();
    int keyTo = pos - 1;
    if (keyFrom < 0 || !literal(HEADERS)) {
      return null;
    }
    byte[] key = keyNull ? null : Arrays.copyOfRange(b, keyFrom, keyTo);
    List<StoredRecord.Header> headers = headers();
    if (headers == null || !literal(VALUE)) {
      return null;
    }
    byte[] value;
    if (literal(TOMBSTONE)) {
      if (pos != end) {
        return null;
      }
      value = null;
    } else if (pos < end && b[pos] == '{') {
      int from = pos - l.offset();
      int to = ExportReader.lastValueEnd(l, from);
      if (to < 0) {
        return null;
      }
      value = Arrays.copyOfRange(b, l.offset() + from, l.offset() + to);
    } else {
      return null;
    }
    return new StoredRecord(topic, (int) partition, offset, timestamp, key, headers, value);
  }

  private String topic() {
    int from = plain();
    if (from < 0) {
      return null;
    }
    if (!Arrays.equals(b, from, pos - 1, lastTopicBytes, 0, lastTopicBytes.length)) {
      lastTopicBytes = Arrays.copyOfRange(b, from, pos - 1);
      lastTopic = new String(lastTopicBytes, StandardCharsets.US_ASCII);
    }
    return lastTopic;
  }

  /** The header objects up to the closing bracket (not consumed), or null when any is not plain. */
  private List<StoredRecord.Header> headers() {
    int from = pos;
    if (pos < end && b[pos] == ']') {
      return List.of();
    }
    int count = 0;
    while (true) {
      if (!literal(NAME)) {
        return null;
      }
      int nameFrom = plain();
      int nameTo = pos - 1;
      if (nameFrom < 0 || !literal(HEADER_VALUE)) {
        return null;
      }
      boolean valueNull = literal(NULL);
      int valueFrom = valueNull ? -1 : plain();
      if (!valueNull && valueFrom < 0 || pos >= end || b[pos++] != '}') {
        return null;
      }
      if (4 * count + 4 > bounds.length) {
        bounds = Arrays.copyOf(bounds, 2 * bounds.length);
      }
      bounds[4 * count] = nameFrom;
      bounds[4 * count + 1] = nameTo;
      bounds[4 * count + 2] = valueFrom;
      bounds[4 * count + 3] = valueNull ? -1 : pos - 2;
      count++;
      if (pos < end && b[pos] == ']') {
        break;
      }
      if (pos >= end || b[pos++] != ',') {
        return null;
      }
    }
    if (!Arrays.equals(b, from, pos, lastHeaderBytes, 0, lastHeaderBytes.length)) {
      lastHeaders = build(count);
      lastHeaderBytes = Arrays.copyOfRange(b, from, pos);
    }
    return lastHeaders;
  }

  private List<StoredRecord.Header> build(int count) {
    var headers = new StoredRecord.Header[count];
    for (int i = 0; i < count; i++) {
      int at = 4 * i;
      String name = new String(b, bounds[at], bounds[at + 1] - bounds[at], StandardCharsets.US_ASCII);
      headers[i] = new StoredRecord.Header(name,
          bounds[at + 2] < 0 ? null : Arrays.copyOfRange(b, bounds[at + 2], bounds[at + 3]));
    }
    return List.of(headers);
  }

  private boolean literal(byte[] expected) {
    int to = pos + expected.length;
    if (to > end || !Arrays.equals(b, pos, to, expected, 0, expected.length)) {
      return false;
    }
    pos = to;
    return true;
  }

  /** A quoted string of printable ASCII, no escapes: where its text starts, pos after its quote; -1 if not. */
  private int plain() {
    if (pos >= end || b[pos] != '"') {
      return -1;
    }
    int from = ++pos;
    for (; pos < end; pos++) {
      byte c = b[pos];
      if (c == '"') {
        pos++;
        return from;
      }
      if (c < 0x20 || c > 0x7e || c == '\\') { // a signed byte: UTF-8's bytes are below 0x20 here
        return -1;
      }
    }
    return -1;
  }

  /** A JSON non-negative integer no larger than {@code limit}, or -1. */
  private long digits(long limit) {
    int from = pos;
    long n = 0;
    for (; pos < end && b[pos] >= '0' && b[pos] <= '9'; pos++) {
      int d = b[pos] - '0';
      if (n > (limit - d) / 10) {
        return -1;
      }
      n = n * 10 + d;
    }
    int count = pos - from;
    return count == 0 || count > 1 && b[from] == '0' ? -1 : n;
  }

  private static byte[] ascii(String s) {
    return s.getBytes(StandardCharsets.US_ASCII);
  }
}
