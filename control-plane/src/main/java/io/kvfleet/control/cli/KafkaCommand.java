package io.kvfleet.control.cli;

import io.kvfleet.control.kafka.EmbeddedKafka;
import io.kvfleet.control.kafka.FleetTopics;
import io.kvfleet.events.Topics;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code kvfleet kafka}: a standalone embedded broker for multi-process runs on one machine. */
@Command(name = "kafka", mixinStandardHelpOptions = true,
    description = "Run the embedded single-node Kafka (KRaft) broker with the fleet topics until Ctrl-C.")
final class KafkaCommand implements java.util.concurrent.Callable<Integer> {
  @Option(names = "--data-dir", description = "Where the broker keeps its log (default: a temporary folder)")
  Path dataDir;

  @Option(names = "--port", defaultValue = "0", description = "Client port (default: a free one)")
  int port;

  @Override
  public Integer call() throws Exception {
    var kafka = dataDir == null
        ? EmbeddedKafka.start(Files.createTempDirectory("kvfleet-kafka-"), true, port)
        : EmbeddedKafka.start(dataDir, false, port);
    FleetTopics.ensure(kafka.bootstrapServers(), (short) 1);
    System.out.println("kafka: bootstrap servers " + kafka.bootstrapServers() + ", data in " + kafka.dataDir());
    System.out.println("kvfleet-kafka=" + kafka.bootstrapServers());
    System.out.println("kafka: topics " + String.join(", ", Topics.ALL) + "; logs in " + Kvfleet.logFile());
    var stop = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      kafka.close();
      stop.countDown();
    }));
    stop.await();
    return 0;
  }
}
