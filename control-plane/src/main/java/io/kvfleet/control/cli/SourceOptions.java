package io.kvfleet.control.cli;

import io.kvfleet.control.replay.LogSource;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/** Where {@code replay} and {@code explain} read the log: an export file (no Kafka needed) or a cluster. */
final class SourceOptions {
  @Option(names = "--file", description = "An export written by 'kvfleet export' (Kafka may be down)")
  Path file;

  @Option(names = "--bootstrap-servers", description = "Read the fleet topics from this Kafka, e.g. 127.0.0.1:9092")
  String bootstrapServers;

  LogSource source() {
    return file != null ? new LogSource.File(file) : LogSource.Kafka.of(bootstrapServers);
  }
}
