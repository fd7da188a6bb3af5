package io.kvfleet.control.cli;

import io.kvfleet.control.console.EventLine;
import io.kvfleet.control.kafka.EventTail;
import io.kvfleet.control.kafka.FleetTopics;
import io.kvfleet.control.replay.KafkaLog;
import io.kvfleet.events.Topics;
import io.kvfleet.events.codec.Decoded;
import io.kvfleet.events.codec.EventCodec;
import java.io.PrintStream;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code kvfleet tail}: prints the fleet's event stream as it lands, one line per event. */
@Command(name = "tail", mixinStandardHelpOptions = true,
    description = "Print the fleet's events human-readably: the log so far in time order across the topics, then"
        + " each new event as it lands.")
final class TailCommand implements java.util.concurrent.Callable<Integer> {
  @Option(names = "--bootstrap-servers", required = true, description = "Kafka to read, e.g. 127.0.0.1:9092")
  String bootstrapServers;

  @picocli.CommandLine.Mixin KafkaConfigOption kafkaConfig;

  @Option(names = "--duration", description = "Stop after this long (e.g. 30s); default: until Ctrl-C")
  Duration duration;

  @Override
  public Integer call() throws InterruptedException {
    kafkaConfig.apply(bootstrapServers);
    FleetTopics.require(bootstrapServers);
    long deadline = duration == null ? Long.MAX_VALUE : System.nanoTime() + duration.toNanos();
    var stop = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(stop::countDown));
    // The history in the order replay folds it (by time across both topics), then everything after.
    var codec = new EventCodec();
    Map<TopicPartition, Long> ends;
    try (var log = KafkaLog.open(bootstrapServers, Topics.ALL, Map.of())) {
      log.read(r -> {
        print(r.topic(), r.partition(), r.offset(), codec.decode(r.value()), System.out);
        return stop.getCount() > 0 && System.nanoTime() < deadline;
      });
      ends = log.endOffsets();
    }
    try (var tail = EventTail.startAt(bootstrapServers, ends, r -> print(r, System.out))) {
      long left = deadline - System.nanoTime();
      if (duration == null) {
        stop.await();
      } else if (left > 0) {
        stop.await(left, TimeUnit.NANOSECONDS);
      }
    }
    return 0;
  }

  /** Prints a decoded event, or says what is wrong with a malformed record and where it is. */
  static void print(ConsumerRecord<String, Decoded> record, PrintStream out) {
    print(record.topic(), record.partition(), record.offset(), record.value(), out);
  }

  private static void print(String topic, int partition, long offset, Decoded value, PrintStream out) {
    switch (value) {
      case Decoded.Event e -> out.println(EventLine.format(e.envelope()));
      case Decoded.Malformed m -> out.printf("MALFORMED %s-%d@%d: %s%n", topic, partition, offset, m.reason());
    }
  }
}
