package io.kvfleet.control.cli;

import io.kvfleet.control.console.TailFilter;
import io.kvfleet.control.kafka.EventTail;
import io.kvfleet.control.kafka.FleetTopics;
import io.kvfleet.control.replay.KafkaLog;
import io.kvfleet.events.Topics;
import io.kvfleet.events.codec.Decoded;
import io.kvfleet.events.codec.EventCodec;
import io.kvfleet.events.trust.Verifier;
import java.io.PrintStream;
import java.nio.file.Path;
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
      + " of a transfer from it, or to it once tail has read the transfer's request")
  String node;

  @Option(names = "--transfer", paramLabel = "ID", description = "Only this transfer's events")
  String transfer;

  @Option(names = "--type", paramLabel = "PREFIX", description = "Only events whose type starts with this, e.g."
      + " transfer. or peer.lost")
  String type;

  @Option(names = "--trust", paramLabel = "FILE", description = "Check each event against this trust file ('kvfleet"
      + " keys new') as a verifying coordinator would: one it would refuse is printed marked UNAUTHENTICATED, with"
      + " the reason")
  Path trust;

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
    if (trust == null) {
      System.err.println("kvfleet tail: WARNING: signatures are NOT checked (give --trust FILE to mark each event its"
          + " writer had no right to write)");
    }
    Verifier verifier = trust == null ? Verifier.off() : ReadTrustOptions.load(trust);
    TailLines lines;
    try (var log = KafkaLog.open(bootstrapServers, Topics.ALL, Map.of())) {
      int transferPartitions = (int) log.endOffsets().keySet().stream()
          .filter(p -> p.topic().equals(Topics.TRANSFERS)).count();
      lines = new TailLines(new TailFilter(node, transfer, type), verifier, transferPartitions);
      log.read(r -> {
        lines.print(r.topic(), r.partition(), r.offset(), r.key() == null ? null
            : new String(r.key(), java.nio.charset.StandardCharsets.UTF_8), codec.decode(r.value()), System.out);
        return stop.getCount() > 0 && System.nanoTime() < deadline;
      });
      ends = log.endOffsets();
    }
    if (lines.shown() == 0 && (node != null || transfer != null || type != null)) {
      System.err.println("kvfleet tail: no event in the log so far matches" + (node == null ? "" : " --node " + node)
          + (transfer == null ? "" : " --transfer " + transfer) + (type == null ? "" : " --type " + type)
          + " (types start with peer., region., model. or transfer.); following what comes");
    }
    try (var tail = EventTail.startAt(bootstrapServers, ends,
        r -> lines.print(r.topic(), r.partition(), r.offset(), r.key(), r.value(), System.out))) {
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
    TailLines.EVERYTHING.print(record.topic(), record.partition(), record.offset(), record.key(), record.value(), out);
  }
}
