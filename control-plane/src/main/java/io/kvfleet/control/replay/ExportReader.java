package io.kvfleet.control.replay;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import io.kvfleet.control.KvfleetException;
import io.kvfleet.control.ReplayJson;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;

/**
 * Reads an export back, record by record, in the order it was written. An embedded value comes
 * back as the exact bytes it was embedded from (the parser skips over it and the bytes are cut
 * out of the line), so it decodes as it did on the broker.
 */
public final class ExportReader implements AutoCloseable {
  /**
   * A string may be as long as a line: the writer embeds a key or header of any length, and Jackson's
   * default of 20,000,000 characters refused a record the export had written.
   */
  private static final JsonFactory JSON = JsonFactory.builder()
      .streamReadConstraints(StreamReadConstraints.builder().maxStringLength(Lines.MAX_LINE).build()).build();

  private final InputStream in;
  private final Lines lines;
  private final ExportHeader header;
  private final Path path;
  private final LineScan scan = new LineScan();
  private long line = 1;

  private ExportReader(Path path) throws IOException {
    this.path = path;
    this.in = Compression.decompress(Files.newInputStream(path), path);
    this.lines = new Lines(in);
    var first = lines.next();
    if (first == null) {
      throw KvfleetException.badInput(path + " is empty: not a kvfleet export");
    }
    try {
      this.header = ReplayJson.mapper().readValue(first.bytes(), first.offset(), first.length(), ExportHeader.class);
    } catch (IOException | RuntimeException e) {
      throw KvfleetException.badInput(path + " is not a kvfleet export: its first line is not an export header ("
          + headerProblem(e) + ")");
    }
    if (!ExportHeader.FORMAT.equals(header.format()) || header.version() != ExportHeader.VERSION) {
      throw KvfleetException.badInput(path + " is " + header.format() + " version " + header.version()
          + ", this build reads " + ExportHeader.FORMAT + " version " + ExportHeader.VERSION);
    }
  }

  private ExportReader(Path path, ExportHeader header, InputStream in, long linesBefore) {
    this.path = path;
    this.header = header;
    this.in = in;
    this.lines = new Lines(in);
    this.line = linesBefore;
  }

  /** What Jackson or the header's own checks said, on one line and short. */
  private static String headerProblem(Exception e) {
    Throwable cause = e.getCause() instanceof IllegalArgumentException ? e.getCause() : e;
    String said = String.valueOf(cause.getMessage()).lines().findFirst().orElse("");
    return io.kvfleet.control.console.EventLine.oneLine(said.length() <= 300 ? said : said.substring(0, 300) + "...");
  }

  /** Opens an export and reads its header. */
  public static ExportReader open(Path path) {
    if (!Files.isReadable(path)) {
      throw KvfleetException.badInput(path + ": no such file, or not readable");
    }
    try {
      return new ExportReader(path);
    } catch (IOException e) {
      throw KvfleetException.badInput("cannot read " + path + " as a kvfleet export: " + e.getMessage());
    }
  }

  /**
   * Opens an export at a frame ({@link ExportWriter#frames}): its header is read from the start,
   * its records from the frame on. A frame at offset 0 is the start of the file.
   */
  public static ExportReader openAt(Path path, ExportWriter.Frame frame) {
    var start = open(path);
    if (frame.offset() == 0) {
      return start;
    }
    try {
      start.close();
      if (frame.offset() >= Files.size(path)) {
        // The frame the writer noted after its last record: nothing follows.
        return new ExportReader(path, start.header, InputStream.nullInputStream(), frame.recordsBefore() + 1);
      }
      var file = Files.newInputStream(path);
      try {
        file.skipNBytes(frame.offset());
        return new ExportReader(path, start.header, Compression.decompress(file, path), frame.recordsBefore() + 1);
      } catch (IOException | RuntimeException e) {
        file.close();
        throw e;
      }
    } catch (IOException e) {
      throw KvfleetException.badInput("cannot read " + path + " from byte " + frame.offset() + ": " + e.getMessage());
    }
  }

  /**
   * Reads the one compressed frame held by {@code [from.offset, to.offset)} of the export whose header
   * is {@code header}: a frame is a complete zstd frame (the writer closes one on every flush), so it
   * decompresses without what comes before it, and frames can be read in parallel ({@link FrameTail}).
   */
  static ExportReader ofFrame(Path path, ExportHeader header, ExportWriter.Frame from, ExportWriter.Frame to)
      throws IOException {
    byte[] compressed;
    try (var file = FileChannel.open(path)) {
      // The index comes from a snapshot header no checksum covers: check it before sizing a buffer by it.
      if (from.offset() < 0 || to.offset() <= from.offset() || to.offset() > file.size()
          || to.offset() - from.offset() > Integer.MAX_VALUE - 8) {
        throw new IOException("its frame index names bytes " + from.offset() + " to " + to.offset() + " of "
            + file.size() + ", which is no frame");
      }
      compressed = new byte[(int) (to.offset() - from.offset())];
      var buffer = ByteBuffer.wrap(compressed);
      while (buffer.hasRemaining()) {
        if (file.read(buffer, from.offset() + buffer.position()) < 0) {
          throw new IOException(path + " ends before byte " + to.offset() + ", where its frame index says a frame starts");
        }
      }
    }
    var reader = new ExportReader(path, header,
        Compression.decompress(new ByteArrayInputStream(compressed), path), from.recordsBefore() + 1);
    if (from.offset() == 0) {
      reader.lines.next(); // the first frame starts with the header line
    }
    return reader;
  }

  /** The header line. */
  public ExportHeader header() {
    return header;
  }

  /** The next record, or null at the end of the file. */
  public StoredRecord next() throws IOException {
    var l = lines.next();
    while (l != null && l.length() == 0) {
      l = lines.next();
    }
    if (l == null) {
      return null;
    }
    line++;
    var written = scan.read(l);
    if (written != null) {
      return written;
    }
    try (JsonParser p = JSON.createParser(l.bytes(), l.offset(), l.length())) {
      return record(p, l);
    } catch (IOException | RuntimeException e) {
      throw new IOException(path + " line " + line + " is not an export record: " + e.getMessage(), e);
    }
  }

  /** One line's record by Jackson (package-private: {@code LineScanTest} holds {@link LineScan} to it). */
  static StoredRecord record(JsonParser p, Lines.Line l) throws IOException {
    if (p.nextToken() != JsonToken.START_OBJECT) {
      throw new IOException("not a JSON object");
    }
    String topic = null;
    int partition = -1;
    long offset = -1;
    long timestamp = -1;
    byte[] key = null;
    byte[] value = null;
    List<StoredRecord.Header> headers = List.of();
    int seen = 0;
    while (p.nextToken() == JsonToken.FIELD_NAME) {
      String field = p.currentName();
      JsonToken token = p.nextToken();
      seen = once(field, seen);
      if (field.equals("value") && token == JsonToken.START_OBJECT) {
        int from = (int) p.currentTokenLocation().getByteOffset();
        int to = lastValueEnd(l, from);
        if (to > 0) {
          // The value closes the line, as the writer puts it: cut it out without parsing it twice.
          value = Arrays.copyOfRange(l.bytes(), l.offset() + from, l.offset() + to);
          break;
        }
      }
      switch (field) {
        case "topic" -> topic = string(p, token, field);
        case "partition" -> partition = (int) within(integer(p, token, field), field, 0, Integer.MAX_VALUE);
        case "offset" -> offset = within(integer(p, token, field), field, 0, Long.MAX_VALUE);
        case "timestamp" -> timestamp = within(integer(p, token, field), field, -1, Long.MAX_VALUE);
        case "key" -> key = text(p, token, field);
        case "keyBase64" -> key = Base64.getDecoder().decode(string(p, token, field));
        case "headers" -> headers = headers(p, token);
        case "value" -> value = token == JsonToken.START_OBJECT ? embedded(p, l) : text(p, token, field);
        case "valueBase64" -> value = Base64.getDecoder().decode(string(p, token, field));
        default -> p.skipChildren(); // "malformed" is recomputed on reading; newer fields are ignored
      }
    }
    if (topic == null || partition < 0 || offset < 0) {
      throw new IOException("no " + (topic == null ? "\"topic\"" : partition < 0 ? "\"partition\"" : "\"offset\""));
    }
    return new StoredRecord(topic, partition, offset, timestamp, key, headers, value);
  }

  /** The fields a record holds once each: a key or a value as text or as base64 is one field. */
  private static final List<List<String>> ONCE = List.of(List.of("topic"), List.of("partition"), List.of("offset"),
      List.of("timestamp"), List.of("key", "keyBase64"), List.of("headers"), List.of("value", "valueBase64"));

  /**
   * {@code seen} with {@code field} marked; a field met a second time is refused: Jackson keeps the
   * last member of a name, and the record would lose the other without a word.
   */
  private static int once(String field, int seen) throws IOException {
    for (int i = 0; i < ONCE.size(); i++) {
      if (ONCE.get(i).contains(field)) {
        if ((seen & 1 << i) != 0) {
          throw new IOException("\"" + field + "\" gives the record's " + String.join(" or ", ONCE.get(i))
              + " a second time");
        }
        return seen | 1 << i;
      }
    }
    return seen;
  }

  /** The parser at {@code field}'s number, which must be an integer (Jackson would truncate 1.9 to 1). */
  private static JsonParser integer(JsonParser p, JsonToken token, String field) throws IOException {
    if (token != JsonToken.VALUE_NUMBER_INT) {
      throw new IOException("\"" + field + "\" is " + token + ", not an integer");
    }
    return p;
  }

  /**
   * The integer at {@code field}, which must be {@code min} to {@code max} (Jackson's own range error
   * names no field; a timestamp of -1 is Kafka's "none").
   */
  private static long within(JsonParser p, String field, long min, long max) throws IOException {
    if (p.getNumberType() == JsonParser.NumberType.BIG_INTEGER || p.getLongValue() < min || p.getLongValue() > max) {
      throw new IOException("\"" + field + "\" is " + p.getText() + ", not " + min + " to " + max);
    }
    return p.getLongValue();
  }

  /**
   * Where the object starting at {@code from} ends (exclusive) if it is the record's last field,
   * i.e. only the record's closing brace follows it; -1 otherwise. A scan of braces outside
   * strings, not a parse: the value is parsed once, when it is decoded.
   */
  static int lastValueEnd(Lines.Line l, int from) {
    byte[] b = l.bytes();
    int end = l.offset() + l.length();
    while (end > l.offset() && isSpace(b[end - 1])) {
      end--;
    }
    if (end - l.offset() < from + 3 || b[end - 1] != '}') {
      return -1;
    }
    int close = ValueEnd.close(b, l.offset() + from, end - 1);
    if (close < 0) {
      return -1;
    }
    int after = close;
    while (after < end - 1 && isSpace(b[after])) {
      after++;
    }
    return after == end - 1 ? close - l.offset() : -1;
  }

  private static boolean isSpace(byte c) {
    return c == ' ' || c == '\t' || c == '\r' || c == '\n';
  }

  private static byte[] embedded(JsonParser p, Lines.Line l) throws IOException {
    int from = (int) p.currentTokenLocation().getByteOffset();
    p.skipChildren();
    int to = (int) p.currentLocation().getByteOffset();
    return Arrays.copyOfRange(l.bytes(), l.offset() + from, l.offset() + to);
  }

  private static byte[] text(JsonParser p, JsonToken token, String field) throws IOException {
    return token == JsonToken.VALUE_NULL ? null : string(p, token, field).getBytes(StandardCharsets.UTF_8);
  }

  /**
   * A field's scalar text. An object or array where text belongs is refused: read as text it
   * would leave the parser inside it, and the record's later fields would be lost without a word.
   */
  private static String string(JsonParser p, JsonToken token, String field) throws IOException {
    if (token == JsonToken.START_OBJECT || token == JsonToken.START_ARRAY || token == JsonToken.VALUE_NULL) {
      throw new IOException("\"" + field + "\" is " + switch (token) {
        case START_OBJECT -> "an object";
        case START_ARRAY -> "an array";
        default -> "null";
      } + ", not text");
    }
    return p.getText();
  }

  private static List<StoredRecord.Header> headers(JsonParser p, JsonToken token) throws IOException {
    if (token == JsonToken.VALUE_NULL) {
      return List.of();
    }
    if (token != JsonToken.START_ARRAY) {
      throw new IOException("\"headers\" is not an array");
    }
    var headers = new ArrayList<StoredRecord.Header>();
    JsonToken next;
    while ((next = p.nextToken()) == JsonToken.START_OBJECT) {
      String name = null;
      byte[] value = null;
      while (p.nextToken() == JsonToken.FIELD_NAME) {
        String field = p.currentName();
        JsonToken t = p.nextToken();
        switch (field) {
          case "name" -> name = string(p, t, "headers[].name");
          case "value" -> value = text(p, t, "headers[].value");
          case "valueBase64" -> value = Base64.getDecoder().decode(string(p, t, "headers[].valueBase64"));
          default -> p.skipChildren();
        }
      }
      headers.add(new StoredRecord.Header(name == null ? "" : name, value));
    }
    if (next != JsonToken.END_ARRAY) {
      throw new IOException("\"headers\" holds " + next + " where a header object belongs");
    }
    // Immutable already, so the record keeps it without a copy; one header is the common case.
    return headers.size() == 1 ? List.of(headers.getFirst()) : List.copyOf(headers);
  }

  @Override
  public void close() throws IOException {
    in.close();
  }
}
