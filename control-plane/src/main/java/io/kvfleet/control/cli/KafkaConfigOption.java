package io.kvfleet.control.cli;

import io.kvfleet.control.kafka.KafkaClients;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/** {@code --kafka-config FILE}: Kafka client properties for every client of a command (TLS, SASL). */
final class KafkaConfigOption {
  static final String DESCRIPTION = "Kafka client properties (the usual client.properties: security.protocol,"
      + " sasl.mechanism, sasl.jaas.config, ssl.truststore.*) for every producer, consumer and admin client of this"
      + " command; 'kvfleet kafka --secure DIR' writes one per role";

  @Option(names = "--kafka-config", paramLabel = "FILE", description = DESCRIPTION)
  Path file;

  /** Binds the file's properties to {@code bootstrapServers} for this process (nothing without the option). */
  void apply(String bootstrapServers) {
    apply(bootstrapServers, file);
  }

  /** Binds {@code file}'s properties, if one is given, to {@code bootstrapServers} for this process. */
  static void apply(String bootstrapServers, Path file) {
    if (file != null) {
      KafkaClients.use(bootstrapServers, file);
    }
  }
}
