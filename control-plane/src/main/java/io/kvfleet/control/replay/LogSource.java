package io.kvfleet.control.replay;

import static java.util.Objects.requireNonNull;

import io.kvfleet.events.Topics;
import java.nio.file.Path;
import java.util.List;

/** Where a replay reads its log: an export file, or the fleet topics on a Kafka cluster. */
public sealed interface LogSource {

  /** An export written by {@code kvfleet export}; needs no Kafka. */
  record File(Path path) implements LogSource {
    public File {
      requireNonNull(path, "path must not be null");
    }
  }

  /** The fleet topics as they stand now on a cluster. */
  record Kafka(String bootstrapServers, List<String> topics) implements LogSource {
    public Kafka {
      requireNonNull(bootstrapServers, "bootstrapServers must not be null");
      topics = List.copyOf(requireNonNull(topics, "topics must not be null"));
    }

    /** Every fleet topic on a cluster. */
    public static Kafka of(String bootstrapServers) {
      return new Kafka(bootstrapServers, Topics.ALL);
    }
  }

  /**
   * How many partitions the transfers topic has in this log (0 when the log holds no transfers topic):
   * what a verifying replay needs to tell a misplaced transfer record, as a coordinator does.
   */
  default int transferPartitions() {
    return switch (this) {
      case File f -> {
        try (var reader = ExportReader.open(f.path())) {
          yield (int) reader.header().endOffsets().keySet().stream()
              .filter(key -> key.matches(java.util.regex.Pattern.quote(Topics.TRANSFERS) + "-\\d+")).count();
        } catch (java.io.IOException e) {
          throw io.kvfleet.control.KvfleetException.badInput("cannot read " + f.path() + ": " + e.getMessage());
        }
      }
      case Kafka k -> {
        if (!k.topics().contains(Topics.TRANSFERS)) {
          yield 0;
        }
        try (var log = KafkaLog.open(k.bootstrapServers(), List.of(Topics.TRANSFERS), java.util.Map.of())) {
          yield log.endOffsets().size();
        }
      }
    };
  }

  /** A short description, for summaries. */
  default String describe() {
    return switch (this) {
      case File f -> f.path().toString();
      case Kafka k -> "Kafka at " + k.bootstrapServers() + " (" + String.join(", ", k.topics()) + ")";
    };
  }
}
