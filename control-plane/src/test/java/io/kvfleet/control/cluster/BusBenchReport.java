package io.kvfleet.control.cluster;

import java.util.Arrays;
import java.util.List;

/** The bus bench's table: medians per shape over the rounds, and each shape against Hazelcast as a ratio. */
final class BusBenchReport {
  private BusBenchReport() {}

  /** A Markdown table of {@code rounds}. */
  static String format(List<BusBenchIT.Round> rounds) {
    var out = new StringBuilder("| shape | first member, buildClustered | second member, process start to ready"
        + " | second member, buildClustered | request/reply p50 | p99 |\n|---|---:|---:|---:|---:|---:|\n");
    var reference = medians(rounds, BusShape.HAZELCAST);
    for (var shape : BusShape.values()) {
      long[] m = medians(rounds, shape);
      out.append(String.format("| %s | %,d ms (%s) | %,d ms (%s) | %,d ms (%s) | %,d µs (%s) | %,d µs (%s) |%n", shape.label,
          m[0], ratio(m[0], reference[0]), m[1], ratio(m[1], reference[1]), m[2], ratio(m[2], reference[2]),
          m[3], ratio(m[3], reference[3]), m[4], ratio(m[4], reference[4])));
    }
    return out.append("\n(median of ").append(rounds.size() / BusShape.values().length)
        .append(" rounds; in brackets: against Hazelcast)\n").toString();
  }

  private static long[] medians(List<BusBenchIT.Round> rounds, BusShape shape) {
    var of = rounds.stream().filter(r -> r.shape() == shape).toList();
    return new long[] {median(of.stream().mapToLong(BusBenchIT.Round::firstJoinMs).toArray()),
        median(of.stream().mapToLong(BusBenchIT.Round::processReadyMs).toArray()),
        median(of.stream().mapToLong(BusBenchIT.Round::peerJoinMs).toArray()),
        median(of.stream().mapToLong(BusBenchIT.Round::p50Micros).toArray()),
        median(of.stream().mapToLong(BusBenchIT.Round::p99Micros).toArray())};
  }

  private static long median(long[] values) {
    Arrays.sort(values);
    return values.length == 0 ? 0 : values[values.length / 2];
  }

  private static String ratio(long value, long reference) {
    return reference == 0 ? "-" : String.format("%.2fx", (double) value / reference);
  }
}
