package io.kvfleet.control.replay;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What an export's records cover against what its header says they cover: a partition's records past its end or
 * before its start, records in a partition the header does not name, and, once the whole file was read, a
 * partition whose last record comes before the end the header gives (a file cut short at a frame's end reads
 * without an error, and replayed as a complete log). One thread calls it, once per record.
 */
final class ExportCoverage {
  private static final int START = 0;
  private static final int END = 1;
  private static final int READ = 2;
  /** Examples kept of each kind of disagreement; the rest are counted. */
  private static final int EXAMPLES = 5;

  private final ExportHeader header;
  /** Per topic, per partition the header names (one small array each, whatever its number): start, end, last read. */
  private final Map<String, Partitions> topics = new HashMap<>();
  private String lastTopic;
  private Partitions last;
  private long unnamed;
  private long outside;
  private final List<String> examples = new ArrayList<>();

  ExportCoverage(ExportHeader header) {
    this.header = header;
    header.endOffsets().forEach((name, end) -> {
      int dash = name.lastIndexOf('-');
      int partition = dash < 0 ? -1 : parsePartition(name.substring(dash + 1));
      if (partition >= 0) {
        topics.computeIfAbsent(name.substring(0, dash), t -> new Partitions())
            .name(partition, header.startOffsets().getOrDefault(name, 0L), end);
      }
    });
  }

  /** Checks where {@code r} is against the header. */
  void see(StoredRecord r) {
    if (topics.isEmpty()) {
      return; // a header that names no partitions (a synthetic log's) promises nothing to check against
    }
    String topic = r.topic();
    Partitions partitions = topic == lastTopic || topic.equals(lastTopic) ? last : topics.get(topic);
    lastTopic = topic;
    last = partitions;
    long[] span = partitions == null ? null : partitions.spans.get(r.partition());
    if (span == null) {
      if (++unnamed <= EXAMPLES) {
        examples.add(topic + "-" + r.partition() + " (offset " + r.offset() + ") is a partition the header does not"
            + " name");
      }
      return;
    }
    if (r.offset() < span[START] || r.offset() >= span[END]) {
      if (++outside <= EXAMPLES) {
        examples.add(topic + "-" + r.partition() + " offset " + r.offset() + " is outside the header's ["
            + span[START] + ", " + span[END] + ")");
      }
    }
    span[READ] = Math.max(span[READ], r.offset());
  }

  /**
   * Where the records disagree with the header, in words; empty when they agree. {@code toTheEnd}: the whole
   * file was read, so a partition whose records stop short of its end is missing some (unless the export says
   * it left records out).
   */
  List<String> disagreements(boolean toTheEnd) {
    List<String> found = new ArrayList<>(examples);
    if (unnamed > EXAMPLES || outside > EXAMPLES) {
      found.add((unnamed + outside - examples.size()) + " more such records");
    }
    if (toTheEnd && header.filter().equals("none")) {
      topics.forEach((topic, partitions) -> partitions.spans.forEach((p, span) -> {
        if (span[END] > span[START] && span[READ] < span[END] - 1) {
          found.add(topic + "-" + p + ": the header says its records run to offset " + (span[END] - 1) + ", the"
              + " file's last is " + (span[READ] < span[START] ? "none" : "at " + span[READ]) + " (" + (span[END] - 1
              - Math.max(span[READ], span[START] - 1)) + " offsets: records missing, or transaction markers, which"
              + " Kafka numbers but hands to no reader)");
        }
      }));
    }
    return found;
  }

  /** A partition number as Kafka writes it (no sign, no leading zero: two spellings would name one partition). */
  private static int parsePartition(String text) {
    if (!text.matches("0|[1-9][0-9]{0,8}")) {
      return -1;
    }
    return Integer.parseInt(text);
  }

  /** The partitions of one topic the header names: each one's start, end and last offset read. */
  private static final class Partitions {
    final Map<Integer, long[]> spans = new HashMap<>();

    void name(int partition, long from, long to) {
      spans.put(partition, new long[] {from, to, from - 1});
    }
  }
}
