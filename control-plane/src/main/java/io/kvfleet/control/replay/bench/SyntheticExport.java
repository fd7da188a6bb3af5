package io.kvfleet.control.replay.bench;

import io.kvfleet.control.replay.ExportHeader;
import io.kvfleet.control.replay.ExportWriter;
import io.kvfleet.control.replay.StoredRecord;
import io.kvfleet.events.Topics;
import io.kvfleet.events.codec.EnvelopeSerializer;
import io.kvfleet.events.codec.EventCodec;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.TreeMap;

/**
 * {@link SyntheticFleet}'s log written straight to an export, as {@code kvfleet export} would have
 * written it from a broker (3 partitions a topic, partitioned by key, one event per millisecond, so
 * file order is replay order): a log of ten million events without a broker or a list in memory.
 */
public final class SyntheticExport {
  private SyntheticExport() {}

  /** Writes about {@code events} events from {@code start}; the export's frames. */
  public static List<ExportWriter.Frame> write(Path file, long events, Instant start, int frameRecords) throws IOException {
    var codec = new EventCodec();
    var header = new ExportHeader(ExportHeader.FORMAT, ExportHeader.VERSION, Instant.now(), "synthetic", Topics.ALL,
        ExportHeader.ORDER, "none (a synthetic log, written without a broker)", new TreeMap<>(), new TreeMap<>());
    var contentType = List.of(new StoredRecord.Header(EnvelopeSerializer.CONTENT_TYPE_HEADER,
        Topics.CONTENT_TYPE.getBytes(StandardCharsets.UTF_8)));
    var offsets = new HashMap<String, Long>();
    try (var writer = ExportWriter.create(file, header, frameRecords)) {
      SyntheticFleet.generate(events, start, e -> {
        String topic = Topics.topicOf(e);
        String key = Topics.keyOf(e);
        int partition = (key.hashCode() & 0x7fff_ffff) % 3;
        long offset = offsets.merge(topic + "-" + partition, 1L, Long::sum) - 1;
        try {
          writer.write(new StoredRecord(topic, partition, offset, e.time().toEpochMilli(),
              key.getBytes(StandardCharsets.UTF_8), contentType, codec.encode(e)));
        } catch (IOException x) {
          throw new UncheckedIOException(x);
        }
      });
      writer.finish();
      return writer.frames();
    }
  }
}
