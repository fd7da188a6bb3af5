package io.kvfleet.control.replay.bench;

import io.kvfleet.control.kafka.KafkaClients;
import io.kvfleet.control.replay.Exporter;
import io.kvfleet.control.replay.LogSource;
import io.kvfleet.control.replay.ReplayRunner;
import io.kvfleet.control.replay.SnapshotCheck;
import io.kvfleet.events.Topics;
import io.kvfleet.events.codec.EnvelopeSerializer;
import io.kvfleet.events.codec.EventCodec;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumSet;
import java.util.Set;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * {@code kvfleet bench replay}: writes a synthetic fleet log of mixed events to empty fleet topics,
 * exports it, folds the export on one thread, replays the topics beside a plain consumer, and
 * restarts a coordinator from a snapshot of it; prints each figure beside its target.
 */
public final class ReplayBenchmark {
  private ReplayBenchmark() {}

  /** The parts of the benchmark, each measured only when asked for. */
  public enum Part {
    /** {@code kvfleet export} beside a plain consumer. */
    EXPORT,
    /** Folding the export. */
    FILE,
    /** {@code kvfleet replay} from Kafka beside a plain consumer. */
    KAFKA,
    /** A coordinator's cold start and restart from a snapshot. */
    RESTART
  }

  /** How big, where and what. */
  public record Settings(int events, Path workDir, int rounds, Set<Part> parts) {
    public Settings {
      parts = parts.isEmpty() ? EnumSet.allOf(Part.class) : EnumSet.copyOf(parts);
    }
  }

  /** Runs every measurement asked for against empty fleet topics at {@code bootstrapServers}. */
  public static void run(String bootstrapServers, Settings settings, PrintStream out) throws Exception {
    Files.createDirectories(settings.workDir());
    out.printf("generating and producing %,d mixed events...%n", settings.events());
    long produced = produce(bootstrapServers, settings.events(), out);
    out.printf("load average before: %s%n", loadAverage());
    Path file = settings.workDir().resolve("bench.jsonl.zst");
    var export = ExportReading.measure(bootstrapServers, Topics.ALL, file, settings.parts().contains(Part.EXPORT)
        ? settings.rounds() : 1);
    out.printf("exported %,d records to %s (%,d bytes)%n", export.summary().records(), file,
        export.summary().fileBytes());
    if (settings.parts().contains(Part.EXPORT)) {
      out.println();
      out.println("Export beside a plain consumer on the same topics (alternating, best of " + settings.rounds() + "):");
      out.println("  " + export.plainConsumer());
      out.println("  " + export.export());
      out.printf("  ratio export / plain consumer: %.2f (target >= 0.80)%n", export.ratio());
    }

    FileFold.Result fold = null;
    if (settings.parts().contains(Part.FILE)) {
      fold = FileFold.measure(file, settings.rounds());
      out.println();
      out.println("Fold from the export, one thread (best of " + settings.rounds() + "):");
      out.println("  " + fold.tokens());
      out.println("  " + fold.endToEnd());
      out.println("  " + fold.pipelined());
      out.printf("  ratio decode + fold / Jackson's tokens alone, per core: %.2f (target >= 0.70)%n", fold.ratio());
    }

    KafkaReading.Result kafka = null;
    if (settings.parts().contains(Part.KAFKA)) {
      kafka = KafkaReading.measure(bootstrapServers, Topics.ALL, settings.rounds());
      out.println();
      out.println("Replay from Kafka beside a plain consumer on the same topics (best of " + settings.rounds() + "):");
      out.println("  " + kafka.plainConsumer());
      out.println("  " + kafka.replay());
      out.printf("  ratio replay / plain consumer: %.2f (target >= 0.80)%n", kafka.ratio());
    }

    RestartFromSnapshot.Result restart = null;
    if (settings.parts().contains(Part.RESTART)) {
      restart = RestartFromSnapshot.measure(bootstrapServers, settings.workDir().resolve("snapshots"));
      out.println();
      out.println("Coordinator restart:");
      out.printf("  cold start, folding %,d events from Kafka: %.2f s to caught up%n", restart.events(),
          restart.coldCatchUp().toMillis() / 1e3);
      out.printf("  restart from snapshot %s (%,d bytes), same JVM: %.2f s to caught up%n", restart.startedFrom(),
          restart.snapshotBytes(), restart.restartToReady().toMillis() / 1e3);
      out.printf("  restart from that snapshot in a fresh JVM: %.2f s from JVM start to caught up (%.2f s from main)%n",
          restart.freshJvmFromStart().toMillis() / 1e3, restart.freshJvmFromMain().toMillis() / 1e3);
    }

    out.println();
    out.printf("Summary (%,d records produced, %d cores seen by this JVM, load average after: %s):%n", produced,
        Runtime.getRuntime().availableProcessors(), loadAverage());
    out.println("  fold, decode and JSON tokens alone: the JMH micro-benchmarks (-Pjmh, see BENCHMARKS.md)");
    if (settings.parts().contains(Part.EXPORT)) {
      out.printf("  export / plain consumer:                            %12.2f              (target >= 0.80) %s%n",
          export.ratio(), verdict(export.ratio() >= 0.8));
    }
    if (fold != null) {
      out.printf("  file to state, read + decode + fold, one thread:    %,12.0f /s per core  (target >= 1,000,000) %s%n",
          fold.endToEnd().perCpuSecond(), verdict(fold.endToEnd().perCpuSecond() >= 1e6));
      out.printf("  file, decode + fold / Jackson's tokens, per core:   %12.2f              (target >= 0.70) %s%n",
          fold.ratio(), verdict(fold.ratio() >= 0.7));
      out.printf("  file to state, decoding on %2d threads:              %,12.0f /s wall%n", ReplayRunner.DECODE_THREADS,
          fold.pipelined().perSecond());
    }
    if (kafka != null) {
      out.printf("  replay from Kafka / plain consumer:                 %12.2f              (target >= 0.80) %s%n",
          kafka.ratio(), verdict(kafka.ratio() >= 0.8));
    }
    if (restart != null) {
      out.printf("  coordinator restart with snapshot, fresh JVM:       %12.2f s            (target < 5 s) %s%n",
          restart.freshJvmFromStart().toMillis() / 1e3, verdict(restart.freshJvmFromStart().toMillis() < 5_000));
    }
    if (fold != null && kafka != null) {
      out.printf("  replay of the export and replay from Kafka reach the same hash:            %s%n",
          verdict(fold.hash().equals(kafka.hash())));
    }
    if (restart != null) {
      var check = SnapshotCheck.against(restart.snapshot(), new LogSource.File(file), false);
      out.printf("  restarted coordinator reaches the cold one's hash:                         %s%n",
          verdict(restart.coldHash().equals(restart.restartHash())));
      out.printf("  the export replayed in the coordinator's fold order reaches its hash:      %s%n",
          verdict(check.match()));
    }
  }

  /** The 1, 5 and 15 minute load averages, as {@code /proc/loadavg} has them. */
  public static String loadAverage() {
    try {
      String[] parts = Files.readString(Path.of("/proc/loadavg")).split(" ");
      return parts[0] + " " + parts[1] + " " + parts[2];
    } catch (java.io.IOException | RuntimeException e) {
      return "unknown";
    }
  }

  private static String verdict(boolean met) {
    return met ? "met" : "NOT MET";
  }

  /**
   * Where a synthetic log of {@code events} (one per simulated millisecond) starts so that it ends
   * half an hour before {@code now}: a broker refuses records stamped more than an hour ahead of its
   * clock ({@code log.message.timestamp.after.max.ms}), so a long log must lie in the past.
   */
  static Instant start(long events, Instant now) {
    return now.minusMillis(events).minus(Duration.ofMinutes(30));
  }

  /**
   * Generates and produces the synthetic log, event by event (a long log needs no list); throws
   * when the broker refused any record, naming how many and the first cause.
   */
  static long produce(String bootstrapServers, long events, PrintStream out) {
    var codec = new EventCodec();
    byte[] contentType = Topics.CONTENT_TYPE.getBytes(StandardCharsets.UTF_8);
    var sent = new long[1];
    var refused = new LongAdder();
    var firstRefusal = new AtomicReference<Exception>();
    long start = System.nanoTime();
    try (var producer = KafkaClients.<String, byte[]>producer(bootstrapServers, Map.of(
        ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
        ProducerConfig.LINGER_MS_CONFIG, 5,
        ProducerConfig.BATCH_SIZE_CONFIG, 256 * 1024,
        ProducerConfig.ACKS_CONFIG, "all"), new StringSerializer(), new ByteArraySerializer())) {
      SyntheticFleet.generate(events, start(events, Instant.now()), e -> {
        var record = new ProducerRecord<>(Topics.topicOf(e), null, e.time().toEpochMilli(), Topics.keyOf(e),
            codec.encode(e));
        record.headers().add(EnvelopeSerializer.CONTENT_TYPE_HEADER, contentType);
        producer.send(record, (metadata, failure) -> {
          if (failure != null) {
            refused.increment();
            firstRefusal.compareAndSet(null, failure);
          }
        });
        sent[0]++;
      });
      producer.flush();
    }
    if (refused.sum() > 0) {
      throw new IllegalStateException(String.format("the broker refused %,d of %,d records of the synthetic log,"
          + " the first with: %s", refused.sum(), sent[0], firstRefusal.get()));
    }
    out.printf("produced %,d records in %.1f s%n", sent[0], (System.nanoTime() - start) / 1e9);
    return sent[0];
  }
}
