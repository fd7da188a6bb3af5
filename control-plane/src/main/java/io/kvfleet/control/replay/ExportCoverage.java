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
  /** Examples kept of each kind of disagreement; the rest are counted. */
  private static final int EXAMPLES = 5;

  private final ExportHeader header;
  /** Per topic, per partition the header names: its start, its end and the last offset read. */
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
    int p = r.partition();
    if (partitions == null || p >= partitions.start.length || partitions.start[p] < 0) {
      if (++unnamed <= EXAMPLES) {
        examples.add(topic + "-" + p + " (offset " + r.offset() + ") is a partition the header does not name");
      }
      return;
    }
    if (r.offset() < partitions.start[p] || r.offset() >= partitions.end[p]) {
      if (++outside <= EXAMPLES) {
        examples.add(topic + "-" + p + " offset " + r.offset() + " is outside the header's [" + partitions.start[p]
            + ", " + partitions.end[p] + ")");
      }
    }
    partitions.read[p] = Math.max(partitions.read[p], r.offset());
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
      topics.forEach((topic, partitions) -> {
        for (int p = 0; p < partitions.start.length; p++) {
          long start = partitions.start[p];
          long end = partitions.end[p];
          if (start >= 0 && end > start && partitions.read[p] < end - 1) {
            found.add(topic + "-" + p + ": the header says its records run to offset " + (end - 1) + ", the file's"
                + " last is " + (partitions.read[p] < start ? "none" : "at " + partitions.read[p]));
          }
        }
      });
    }
    return found;
  }

  private static int parsePartition(String text) {
    try {
      int p = Integer.parseInt(text);
      return p < Partitions.MOST ? p : -1;
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  /** The partitions of one topic the header names, by number (fewer than {@link #MOST}). */
  private static final class Partitions {
    static final int MOST = 1 << 20;
    long[] start = new long[0];
    long[] end = new long[0];
    long[] read = new long[0];

    void name(int partition, long from, long to) {
      if (partition >= start.length) {
        int size = Math.max(partition + 1, start.length * 2);
        start = grow(start, size);
        end = grow(end, size);
        read = grow(read, size);
      }
      start[partition] = from;
      end[partition] = to;
      read[partition] = from - 1;
    }

    private static long[] grow(long[] values, int size) {
      var grown = java.util.Arrays.copyOf(values, size);
      java.util.Arrays.fill(grown, values.length, size, -1);
      return grown;
    }
  }
}
