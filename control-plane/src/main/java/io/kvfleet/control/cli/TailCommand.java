package io.kvfleet.control.cli;

import io.kvfleet.control.console.EventLine;
import io.kvfleet.control.kafka.EventTail;
import io.kvfleet.control.kafka.FleetTopics;
import io.kvfleet.events.Topics;
import io.kvfleet.events.codec.Decoded;
import java.io.PrintStream;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code kvfleet tail}: prints the fleet's event stream as it lands, one line per event. */
@Command(name = "tail", mixinStandardHelpOptions = true,
    description = "Print the fleet's events human-readably (from the beginning of the log), then follow.")
final class TailCommand implements java.util.concurrent.Callable<Integer> {
  @Option(names = "--bootstrap-servers", required = true, description = "Kafka to read, e.g. 127.0.0.1:9092")
  String bootstrapServers;

  @Option(names = "--duration", description = "Stop after this long (e.g. 30s); default: until Ctrl-C")
  Duration duration;

  @Override
  public Integer call() throws InterruptedException {
    FleetTopics.require(bootstrapServers);
    var stop = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(stop::countDown));
    try (var tail = EventTail.start(bootstrapServers, Topics.ALL, r -> print(r, System.out))) {
      if (duration == null) {
        stop.await();
      } else {
        stop.await(duration.toMillis(), TimeUnit.MILLISECONDS);
      }
    }
    return 0;
  }

  /** Prints a decoded event, or says what is wrong with a malformed record and where it is. */
  static void print(ConsumerRecord<String, Decoded> record, PrintStream out) {
    switch (record.value()) {
      case Decoded.Event e -> out.println(EventLine.format(e.envelope()));
      case Decoded.Malformed m -> out.printf("MALFORMED %s-%d@%d: %s%n",
          record.topic(), record.partition(), record.offset(), m.reason());
    }
  }
}
