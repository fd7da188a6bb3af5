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

  /** A short description, for summaries. */
  default String describe() {
    return switch (this) {
      case File f -> f.path().toString();
      case Kafka k -> "Kafka at " + k.bootstrapServers() + " (" + String.join(", ", k.topics()) + ")";
    };
  }
}
