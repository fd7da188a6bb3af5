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
  private static final byte[] NOT_PLAIN = new byte[0];
  /** Past this, a header list or its bytes are not kept for the next line (a crafted line of millions). */
  private static final int KEPT = 1 << 12;

  private byte[] b;
  private int pos;
  private int end;
  // A log has few topics, and its records mostly repeat their headers: the last ones are kept.
  private byte[] lastTopicBytes = new byte[0];
  private String lastTopic = "";
  private byte[] lastHeaderBytes = new byte[0];
  private List<StoredRecord.Header> lastHeaders;
  private int[] bounds = new int[16]; // four per header: name from, to, value from, to (-1: null)

  /** The record on {@code l}, or null when the line is not exactly as the writer writes one. */
  StoredRecord read(Lines.Line l) {
    b = l.bytes();
    pos = l.offset();
    end = l.offset() + l.length();
    String topic = literal(TOPIC) ? topic() : null;
    if (topic == null || !literal(PARTITION)) {
      return null;
    }
    long partition = digits(Integer.MAX_VALUE);
    if (partition < 0 || !literal(OFFSET)) {
      return null;
    }
    long offset = digits(Long.MAX_VALUE);
    if (offset < 0 || !literal(TIMESTAMP)) {
      return null;
    }
    long timestamp = digits(Long.MAX_VALUE);
    if (timestamp < 0 || !literal(KEY)) {
      return null;
    }
    byte[] key = key();
    if (key == NOT_PLAIN || !literal(HEADERS)) {
      return null;
    }
    List<StoredRecord.Header> headers = headers();
    if (headers == null || !literal(VALUE)) {
      return null;
    }
    byte[] value = value(l);
    return value == NOT_PLAIN ? null : new StoredRecord(topic, (int) partition, offset, timestamp, key, headers, value);
  }

  /** The key's bytes; null for JSON's null; {@link #NOT_PLAIN} when it is not as the writer writes one. */
  private byte[] key() {
    if (literal(NULL)) {
      return null;
    }
    int from = plain();
    return from < 0 ? NOT_PLAIN : Arrays.copyOfRange(b, from, pos - 1);
  }

  /** The embedded value closing the line; null for a tombstone; {@link #NOT_PLAIN} otherwise. */
  private byte[] value(Lines.Line l) {
    if (literal(TOMBSTONE)) {
      return pos == end ? null : NOT_PLAIN;
    }
    if (pos == end || b[pos] != '{') {
      return NOT_PLAIN;
    }
    int to = ExportReader.lastValueEnd(l, pos - l.offset());
    return to < 0 ? NOT_PLAIN : Arrays.copyOfRange(b, pos, l.offset() + to);
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
    if (Arrays.equals(b, from, pos, lastHeaderBytes, 0, lastHeaderBytes.length)) {
      return lastHeaders;
    }
    var built = build(count);
    if (pos - from <= KEPT) {
      lastHeaders = built;
      lastHeaderBytes = Arrays.copyOfRange(b, from, pos);
    }
    if (bounds.length > KEPT) {
      bounds = new int[16];
    }
    return built;
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
