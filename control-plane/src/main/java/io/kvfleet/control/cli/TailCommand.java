package io.kvfleet.control.cli;

import io.kvfleet.control.console.EventLine;
import io.kvfleet.control.console.TailFilter;
import io.kvfleet.control.kafka.EventTail;
import io.kvfleet.control.kafka.FleetTopics;
import io.kvfleet.control.replay.KafkaLog;
import io.kvfleet.events.Topics;
import io.kvfleet.events.codec.Decoded;
import io.kvfleet.events.codec.EventCodec;
import io.kvfleet.events.trust.Verdict;
import io.kvfleet.events.trust.Verifier;
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

  @Option(names = "--node", paramLabel = "ID", description = "Only events about this node: its own, and every event"
      + " of a transfer from or to it")
  String node;

  @Option(names = "--transfer", paramLabel = "ID", description = "Only this transfer's events")
  String transfer;

  @Option(names = "--type", paramLabel = "PREFIX", description = "Only events whose type starts with this, e.g."
      + " transfer. or peer.lost")
  String type;

  @picocli.CommandLine.Mixin ReadTrustOptions trust;

  @Override
  public Integer call() throws InterruptedException {
    kafkaConfig.apply(bootstrapServers);
    FleetTopics.require(bootstrapServers);
    long deadline = duration == null ? Long.MAX_VALUE : System.nanoTime() + duration.toNanos();
    var stop = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(stop::countDown));
    // The history in the order replay folds it (by time across both topics), then everything after.
    var codec = new EventCodec();
    var shown = new Shown(new TailFilter(node, transfer, type), trust.verifier("tail"));
    Map<TopicPartition, Long> ends;
    try (var log = KafkaLog.open(bootstrapServers, Topics.ALL, Map.of())) {
      log.read(r -> {
        shown.print(r.topic(), r.partition(), r.offset(), codec.decode(r.value()), System.out);
        return stop.getCount() > 0 && System.nanoTime() < deadline;
      });
      ends = log.endOffsets();
    }
    try (var tail = EventTail.startAt(bootstrapServers, ends,
        r -> shown.print(r.topic(), r.partition(), r.offset(), r.value(), System.out))) {
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
    EVERYTHING.print(record.topic(), record.partition(), record.offset(), record.value(), out);
  }

  private static final Shown EVERYTHING = new Shown(new TailFilter(null, null, null), Verifier.off());

  /**
   * What is printed: the events {@code filter} shows, each marked {@code UNAUTHENTICATED} when {@code verifier}
   * refuses it (tail folds nothing, so it prints what a replay would leave out, and says so), and every malformed
   * record, which no filter can place.
   */
  record Shown(TailFilter filter, Verifier verifier) {
    void print(String topic, int partition, long offset, Decoded value, PrintStream out) {
      switch (value) {
        case Decoded.Event e when !filter.shows(e.envelope()) -> { }
        case Decoded.Event e -> {
          String line = EventLine.format(e.envelope());
          out.println(verifier.check(e.raw(), e.envelope(), id -> java.util.Optional.empty())
              instanceof Verdict.Refused r ? "UNAUTHENTICATED (" + r.reason() + ": " + r.detail() + ") " + line : line);
        }
        case Decoded.Malformed m -> out.printf("MALFORMED %s-%d@%d: %s%n", topic, partition, offset, m.reason());
      }
    }
  }
}
