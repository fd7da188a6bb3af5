package io.kvfleet.control.replay;

import io.kvfleet.events.codec.Decoded;
import io.kvfleet.events.codec.EventCodec;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * An export's work per record after Kafka: the thread that reads and merges the partitions hands
 * each record here; one thread makes the stored record of it and checks it (or, with a node filter,
 * decodes it), another writes its line ({@link Handoff}). On two cores the check and the line overlap the reading, so the export
 * can keep up with a consumer that only reads. The counts are the writing thread's and are read
 * after {@link #finish}.
 */
final class ExportStages implements AutoCloseable {
  /** A record and how its line holds the value: embedded, or base64 with the reason. */
  private record Checked(StoredRecord record, boolean embed, String malformed) {}

  private final Exporter.Options options;
  private final NodeFilter nodeFilter;
  private final EventCodec codec = new EventCodec();
  private final ExportWriter writer;
  private final Handoff<Checked> write;
  private final Handoff<ConsumerRecord<byte[], byte[]>> check;
  private final Map<String, long[]> byTopic = new HashMap<>(); // a counter per topic, not a boxed Long per record
  private long written;
  private long malformed;
  private long first = Long.MIN_VALUE;
  private long last = Long.MIN_VALUE;

  ExportStages(ExportWriter writer, Exporter.Options options) {
    this.writer = writer;
    this.options = options;
    this.nodeFilter = options.node() == null ? null : new NodeFilter(options.node());
    this.write = new Handoff<>("kvfleet-export-write", this::write);
    this.check = new Handoff<>("kvfleet-export-check", this::check);
  }

  /**
   * Takes the next record in replay order; false once a stage has failed ({@link #finish} says why).
   * The reading thread only hands it on: it is the export's bound (a consumer's poll and the merge),
   * so the copy into a stored record is the checking thread's.
   */
  boolean accept(ConsumerRecord<byte[], byte[]> consumed) {
    return check.accept(consumed);
  }

  /** Waits until every record taken is written; rethrows what a stage failed with. */
  void finish() {
    check.finish();
    write.finish();
  }

  private void check(ConsumerRecord<byte[], byte[]> consumed) {
    if (!inTime(consumed.timestamp())) {
      return;
    }
    var r = StoredRecord.of(consumed);
    byte[] value = r.value();
    if (nodeFilter == null) {
      // No node to pick out: nothing needs the event, so the value is checked as JSON, not decoded.
      boolean json = value != null && JsonCheck.isObject(value);
      write.accept(new Checked(r, json, value == null ? "empty record" : json ? null : ExportWriter.NOT_JSON));
      return;
    }
    Decoded decoded = value == null ? new Decoded.Malformed("empty record", new byte[0]) : codec.decode(value);
    if (nodeFilter.keeps(r.keyText(), decoded)) {
      boolean event = decoded instanceof Decoded.Event && value != null && JsonCheck.isObject(value);
      write.accept(new Checked(r, event, decoded instanceof Decoded.Malformed m ? m.reason() : null));
    }
  }

  private void write(Checked c) {
    try {
      writer.line(c.record(), c.embed(), c.malformed());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    written++;
    malformed += c.malformed() == null ? 0 : 1;
    long at = c.record().timestamp();
    first = first == Long.MIN_VALUE ? at : first;
    last = at;
    byTopic.computeIfAbsent(c.record().topic(), t -> new long[1])[0]++;
  }

  private boolean inTime(long timestamp) {
    return (options.since() == null || timestamp >= options.since().toEpochMilli())
        && (options.until() == null || timestamp <= options.until().toEpochMilli());
  }

  long written() {
    return written;
  }

  /** Values kept as base64: not JSON, or with a node filter not events. */
  long malformed() {
    return malformed;
  }

  SortedMap<String, Long> byTopic() {
    var topics = new TreeMap<String, Long>();
    byTopic.forEach((t, n) -> topics.put(t, n[0]));
    return topics;
  }

  Instant first() {
    return first == Long.MIN_VALUE ? null : Instant.ofEpochMilli(first);
  }

  Instant last() {
    return last == Long.MIN_VALUE ? null : Instant.ofEpochMilli(last);
  }

  @Override
  public void close() {
    check.close();
    write.close();
  }
}
