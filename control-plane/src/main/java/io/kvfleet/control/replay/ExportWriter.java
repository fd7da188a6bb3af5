package io.kvfleet.control.replay;

import io.kvfleet.control.ReplayJson;
import io.kvfleet.events.codec.Decoded;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Base64;

/**
 * Writes an export: JSON Lines compressed as its name says ({@link Compression}), a header line then one line per record. A value
 * that decodes to an event is embedded as the JSON object it is, byte for byte; anything else
 * (malformed, not UTF-8, spanning lines) is kept as base64 with the reason it is not an event, so
 * nothing the broker held is lost.
 */
public final class ExportWriter implements AutoCloseable {
  private final Path path;
  private final Path partial;
  private final OutputStream file;
  private final LineBuffer line = new LineBuffer();
  private final CountingOutputStream counted;
  private final boolean framed;
  private final int frameRecords;
  private final List<Frame> frames = new ArrayList<>();
  private long records;
  private boolean finished;
  private String lastTopic;
  private byte[] lastTopicJson;
  private String lastHeaderName;
  private byte[] lastHeaderValue;
  private byte[] lastHeaderJson;

  /** Records per zstd frame: where a replay can start reading without decompressing what comes before. */
  public static final int FRAME_RECORDS = 100_000;

  /**
   * Where a compressed frame starts: the records before it and its byte offset in the file. A zstd
   * export is a series of frames, one every {@link #FRAME_RECORDS} records; a gzip one has only the first.
   */
  public record Frame(long recordsBefore, long offset) {}

  private ExportWriter(Path path, int frameRecords) throws IOException {
    var compression = Compression.forName(path);
    this.framed = compression == Compression.ZSTD;
    this.frameRecords = frameRecords;
    this.path = path;
    // Written beside its name and renamed when finished: an export cut short never looks whole.
    this.partial = path.resolveSibling(path.getFileName() + ".partial");
    counted = new CountingOutputStream(Files.newOutputStream(partial));
    try {
      file = compression.compress(new BufferedOutputStream(counted, 1 << 16));
    } catch (IOException | RuntimeException e) {
      counted.close();
      Files.deleteIfExists(partial);
      throw e;
    }
  }

  /**
   * Starts the file at {@code path} (which {@link #finish} creates or replaces) and writes the
   * header. Until then the records go to {@code path.partial}.
   */
  public static ExportWriter create(Path path, ExportHeader header) throws IOException {
    return create(path, header, FRAME_RECORDS);
  }

  /** {@link #create(Path, ExportHeader)} with a frame every {@code frameRecords} records (tests use small ones). */
  public static ExportWriter create(Path path, ExportHeader header, int frameRecords) throws IOException {
    var writer = new ExportWriter(path, frameRecords);
    try {
      writer.line.bytes(ReplayJson.line(header).getBytes(StandardCharsets.UTF_8)).raw("\n");
    } catch (RuntimeException e) {
      writer.close(); // not finished: the partial file goes
      throw e;
    }
    return writer;
  }

  /** Appends one record; {@code decoded} is what its value decoded to. */
  public void write(StoredRecord r, Decoded decoded) throws IOException {
    boolean event = decoded instanceof Decoded.Event && r.value() != null && JsonCheck.isObject(r.value());
    line(r, event, decoded instanceof Decoded.Malformed m ? m.reason() : null);
  }

  /**
   * Appends one record without decoding its value: embedded when it is one JSON object on one line,
   * base64 otherwise (whether it was embedded is returned). Whether it is an event is left to the
   * replay, which decodes it anyway; this is what lets an export keep up with a plain consumer.
   */
  public boolean write(StoredRecord r) throws IOException {
    byte[] value = r.value();
    boolean json = value != null && JsonCheck.isObject(value);
    line(r, json, value == null ? "empty record" : json ? null : NOT_JSON);
    return json;
  }

  /** The reason {@link #write(StoredRecord)} gives a value it keeps as base64. */
  public static final String NOT_JSON = "not one JSON object on one line";

  /** Appends one record's line as it is decided: value embedded, or base64 with {@code malformed} (null: none). */
  void line(StoredRecord r, boolean embed, String malformed) throws IOException {
    line.raw("{\"topic\":").bytes(topic(r.topic())).raw(",\"partition\":").number(r.partition())
        .raw(",\"offset\":").number(r.offset()).raw(",\"timestamp\":").number(r.timestamp()).raw(",");
    bytes("key", r.key());
    line.raw(",\"headers\":[");
    boolean first = true;
    for (var h : r.headers()) {
      header(h, first);
      first = false;
    }
    line.raw("],");
    byte[] value = r.value();
    if (value == null) {
      line.raw("\"value\":null");
    } else if (embed) {
      line.raw("\"value\":").bytes(value);
    } else {
      line.raw("\"valueBase64\":\"").bytes(Base64.getEncoder().encode(value)).raw("\"");
    }
    if (malformed != null) {
      line.raw(",\"malformed\":").string(malformed);
    }
    line.raw("}\n");
    line.drainIfFull(file);
    if (++records % frameRecords == 0 && framed) {
      endFrame();
    }
  }

  /** The topic as a quoted JSON string; a log has few topics, so the last one is kept quoted. */
  private byte[] topic(String topic) {
    if (!topic.equals(lastTopic)) {
      int mark = line.mark();
      line.string(topic);
      lastTopicJson = line.since(mark);
      lastTopic = topic;
      line.drop(mark);
    }
    return lastTopicJson;
  }

  /**
   * One header object. Records mostly carry the same header (the content type), so the last
   * one written is kept as bytes and appended again when name and value repeat.
   */
  private void header(StoredRecord.Header h, boolean first) {
    if (!first) {
      line.raw(",");
    }
    if (h.name().equals(lastHeaderName) && Arrays.equals(h.value(), lastHeaderValue)) {
      line.bytes(lastHeaderJson);
      return;
    }
    int mark = line.mark();
    line.raw("{\"name\":").string(h.name()).raw(",");
    bytes("value", h.value());
    line.raw("}");
    lastHeaderName = h.name();
    lastHeaderValue = h.value() == null ? null : h.value().clone();
    lastHeaderJson = line.since(mark);
  }

  /** Ends the compressed frame: the next record starts a new one, at the offset noted. */
  private void endFrame() throws IOException {
    line.drain(file);
    file.flush(); // a zstd stream that closes its frame on flush, then the buffer under it
    frames.add(new Frame(records, counted.count));
  }

  /** Where the frames after the first start (the first starts at 0, with the header line). */
  public List<Frame> frames() {
    return List.copyOf(frames);
  }

  /** Text, or base64 under {@code name + "Base64"} when the bytes are not plain UTF-8 text. */
  private void bytes(String name, byte[] bytes) {
    if (bytes == null) {
      line.raw("\"").raw(name).raw("\":null");
      return;
    }
    int mark = line.mark();
    line.raw("\"").raw(name).raw("\":");
    if (line.plainString(bytes)) {
      return; // printable ASCII, nothing to escape: as Jackson would quote it, without a String
    }
    line.drop(mark);
    if (isUtf8(bytes)) {
      line.raw("\"").raw(name).raw("\":").string(new String(bytes, StandardCharsets.UTF_8));
    } else {
      line.raw("\"").raw(name).raw("Base64\":\"").bytes(Base64.getEncoder().encode(bytes)).raw("\"");
    }
  }

  private static boolean isUtf8(byte[] bytes) {
    return Arrays.equals(new String(bytes, StandardCharsets.UTF_8).getBytes(StandardCharsets.UTF_8), bytes);
  }

  /**
   * Writes out everything buffered, ends the compressed frame and puts the file at its path;
   * {@link #bytesWritten} is then the file's size.
   */
  public void finish() throws IOException {
    if (finished) {
      return;
    }
    line.drain(file);
    file.close();
    Files.move(partial, path, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    finished = true;
  }

  /** Compressed bytes written so far. */
  public long bytesWritten() {
    return counted.count;
  }

  /** Finished: nothing to do. Not finished (the export failed): the partial file is deleted. */
  @Override
  public void close() throws IOException {
    if (!finished) {
      try {
        file.close(); // and the streams under it
      } finally {
        counted.close(); // the file itself, even if the compressor failed; closing twice does nothing
        Files.deleteIfExists(partial);
      }
    }
  }

  private static final class CountingOutputStream extends java.io.FilterOutputStream {
    long count;

    CountingOutputStream(OutputStream out) {
      super(out);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      out.write(b, off, len);
      count += len;
    }

    @Override
    public void write(int b) throws IOException {
      out.write(b);
      count++;
    }
  }
}
