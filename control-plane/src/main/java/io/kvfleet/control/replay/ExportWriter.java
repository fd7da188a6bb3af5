package io.kvfleet.control.replay;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonGenerator;
import io.kvfleet.control.ReplayJson;
import io.kvfleet.events.codec.Decoded;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Arrays;
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
  private final JsonGenerator json;
  private final CountingOutputStream counted;
  private boolean finished;

  private ExportWriter(Path path) throws IOException {
    var compression = Compression.forName(path);
    this.path = path;
    // Written beside its name and renamed when finished: an export cut short never looks whole.
    this.partial = path.resolveSibling(path.getFileName() + ".partial");
    counted = new CountingOutputStream(Files.newOutputStream(partial));
    try {
      file = compression.compress(new BufferedOutputStream(counted, 1 << 16));
      json = ReplayJson.mapper().getFactory().createGenerator(file, JsonEncoding.UTF8);
    } catch (IOException | RuntimeException e) {
      counted.close();
      Files.deleteIfExists(partial);
      throw e;
    }
    json.setRootValueSeparator(null);
  }

  /**
   * Starts the file at {@code path} (which {@link #finish} creates or replaces) and writes the
   * header. Until then the records go to {@code path.partial}.
   */
  public static ExportWriter create(Path path, ExportHeader header) throws IOException {
    var writer = new ExportWriter(path);
    try {
      writer.json.writeRaw(ReplayJson.line(header));
      writer.json.writeRaw('\n');
    } catch (IOException | RuntimeException e) {
      writer.close(); // not finished: the partial file goes
      throw e;
    }
    return writer;
  }

  /** Appends one record; {@code decoded} is what its value decoded to. */
  public void write(StoredRecord r, Decoded decoded) throws IOException {
    json.writeStartObject();
    json.writeStringField("topic", r.topic());
    json.writeNumberField("partition", r.partition());
    json.writeNumberField("offset", r.offset());
    json.writeNumberField("timestamp", r.timestamp());
    bytes("key", r.key());
    json.writeArrayFieldStart("headers");
    for (var h : r.headers()) {
      json.writeStartObject();
      json.writeStringField("name", h.name());
      bytes("value", h.value());
      json.writeEndObject();
    }
    json.writeEndArray();
    value(r.value(), decoded);
    json.writeEndObject();
    json.writeRaw('\n');
  }

  private void value(byte[] value, Decoded decoded) throws IOException {
    if (value == null) {
      json.writeNullField("value");
    } else if (decoded instanceof Decoded.Event && isPlainUtf8Line(value)) {
      json.writeFieldName("value");
      json.writeRawValue(new String(value, StandardCharsets.UTF_8));
    } else {
      json.writeStringField("valueBase64", Base64.getEncoder().encodeToString(value));
    }
    if (decoded instanceof Decoded.Malformed m) {
      json.writeStringField("malformed", m.reason());
    }
  }

  /** Text, or base64 under {@code name + "Base64"} when the bytes are not plain UTF-8 text. */
  private void bytes(String name, byte[] bytes) throws IOException {
    if (bytes == null) {
      json.writeNullField(name);
    } else if (isUtf8(bytes)) {
      json.writeStringField(name, new String(bytes, StandardCharsets.UTF_8));
    } else {
      json.writeStringField(name + "Base64", Base64.getEncoder().encodeToString(bytes));
    }
  }

  private static boolean isUtf8(byte[] bytes) {
    return Arrays.equals(new String(bytes, StandardCharsets.UTF_8).getBytes(StandardCharsets.UTF_8), bytes);
  }

  private static boolean isPlainUtf8Line(byte[] bytes) {
    for (byte b : bytes) {
      if (b == '\n' || b == '\r') {
        return false;
      }
    }
    return isUtf8(bytes);
  }

  /**
   * Writes out everything buffered, ends the compressed frame and puts the file at its path;
   * {@link #bytesWritten} is then the file's size.
   */
  public void finish() throws IOException {
    if (finished) {
      return;
    }
    json.close();
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
        json.close(); // and the streams under it
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
