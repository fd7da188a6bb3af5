package io.kvfleet.control.cli;

import io.kvfleet.control.KvfleetException;
import io.kvfleet.control.ReplayJson;
import io.kvfleet.control.replay.Exporter;
import io.kvfleet.control.replay.OffsetRange;
import io.kvfleet.events.Topics;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code kvfleet export}: the fleet topics (or a range, or one node) to a compressed JSON Lines file. */
@Command(name = "export", mixinStandardHelpOptions = true,
    description = "Copy the fleet topics as they stand now (or a time or offset range, or one node's records) "
        + "to a compressed JSON Lines file (zstd, or gzip when the name ends .gz): a header line, then every record with its topic, partition, offset, "
        + "timestamp, key, headers and value, in replay order. 'kvfleet replay --file' and 'kvfleet explain "
        + "--file' read it without Kafka.")
final class ExportCommand implements Callable<Integer> {
  @Option(names = "--bootstrap-servers", required = true, description = "The fleet's Kafka, e.g. 127.0.0.1:9092")
  String bootstrapServers;

  @picocli.CommandLine.Mixin KafkaConfigOption kafkaConfig;

  @Option(names = {"-o", "--output"}, required = true, description = "The file to write, e.g. fleet.jsonl.zst")
  Path output;

  @Option(names = "--topic", split = ",", description = "Topics to export (default: kvfleet.nodes,kvfleet.transfers)")
  List<String> topics = new ArrayList<>(Topics.ALL);

  @Option(names = "--since", description = "Only records with a timestamp at or after this time, e.g. 2025-06-01T10:40:00Z")
  String since;

  @Option(names = "--until", description = "Only records with a timestamp at or before this time")
  String until;

  @Option(names = "--partition", description = "Narrow one partition to these offsets, e.g. kvfleet.nodes-0:100..200"
      + " (repeatable; partitions not named are exported whole, unless --topic leaves them out)")
  List<String> partitions = new ArrayList<>();

  @Option(names = "--node", description = "Only records about this node: its life, its regions, its transfers either way")
  String node;

  @Option(names = "--snapshots-every", description = "Then fold the export and keep a snapshot of the state beside it "
      + "(in <output>.snapshots/) every this many records, so 'replay --until' starts from the newest one before its "
      + "time; e.g. 1000000 (default: none)")
  long snapshotsEvery;

  @Option(names = "--keep-ended", description = "With --snapshots-every: the snapshots' fold forgets a transfer this "
      + "long after it ended, as a coordinator with the same --keep-ended (default: 10m); 'replay --until' uses them "
      + "when it is given the same --keep-ended")
  java.time.Duration keepEnded;

  @Option(names = "--json", description = "Print the summary as JSON")
  boolean json;

  @Option(names = "--force", description = "Replace the output file if it exists (by default an export is never "
      + "written over one: it may be the evidence of an earlier incident)")
  boolean force;

  @Override
  public Integer call() {
    try {
      var ranges = new HashMap<String, OffsetRange>();
      partitions.forEach(p -> {
        var range = OffsetRange.parse(p);
        ranges.put(range.partitionKey(), range);
      });
      kafkaConfig.apply(bootstrapServers);
      var options = new Exporter.Options(bootstrapServers, topics, ranges, time(since), time(until), node);
      var folder = output.toAbsolutePath().getParent();
      if (folder != null && !java.nio.file.Files.isDirectory(folder)) {
        throw KvfleetException.badInput("cannot write " + output + ": its folder does not exist");
      }
      if (java.nio.file.Files.exists(output, java.nio.file.LinkOption.NOFOLLOW_LINKS) && !force) {
        throw KvfleetException.badInput(output + " exists (an earlier export?): nothing was written; give another -o,"
            + " or --force to replace it");
      }
      if (keepEnded != null && snapshotsEvery <= 0) {
        throw new IllegalArgumentException("--keep-ended is the window of the snapshots: give --snapshots-every too");
      }
      WritersStamps.note("export", bootstrapServers, System.err);
      var summary = Exporter.export(options, output, Clock.systemUTC(), !json);
      if (snapshotsEvery > 0) {
        var window = keepEnded == null ? java.time.Duration.ofMinutes(10) : keepEnded;
        var written = io.kvfleet.control.replay.ExportSnapshots.write(output, summary.frames(), snapshotsEvery,
            java.util.Optional.of(window));
        System.err.printf("kvfleet export: %d snapshots (every %,d records, ended transfers kept %s) in %s%n",
            written.size(), snapshotsEvery, window, io.kvfleet.control.replay.ExportSnapshots.dirOf(output));
      }
      if (json) {
        System.out.println(ReplayJson.pretty(summary));
      } else {
        System.out.printf("exported %,d records %s (%,d malformed) from %s to %s into %s (%,d bytes compressed) in %.1f s%n",
            summary.records(), summary.byTopic(), summary.malformed(), orNone(summary.first()), orNone(summary.last()),
            summary.file(), summary.fileBytes(), summary.elapsed().toMillis() / 1000.0);
        System.out.println("offsets: " + summary.header().startOffsets() + " up to " + summary.header().endOffsets()
            + "; filter: " + summary.header().filter());
        if (summary.records() == 0) {
          System.err.println("kvfleet export: no record matched the filter" + (node == null ? "" : " (does node "
              + node + " appear in the log?)") + "; the file holds only the header");
        }
      }
      return 0;
    } catch (KvfleetException | IllegalArgumentException e) {
      System.err.println("kvfleet export: " + e.getMessage());
      return 2;
    }
  }

  private static Object orNone(Object time) {
    return time == null ? "-" : time;
  }

  static Instant time(String text) {
    try {
      return text == null ? null : OffsetDateTime.parse(text).toInstant();
    } catch (java.time.format.DateTimeParseException e) {
      throw new IllegalArgumentException("'" + text + "' is not an RFC 3339 time, e.g. 2025-06-01T10:42:07Z");
    }
  }
}
