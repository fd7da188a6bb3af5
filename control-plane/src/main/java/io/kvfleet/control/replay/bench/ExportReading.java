package io.kvfleet.control.replay.bench;

import io.kvfleet.control.replay.Exporter;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;

/**
 * {@code kvfleet export} beside the reference: the plain consumer loop of {@link KafkaReading} over
 * the same topics, alternating, best of each. The export writes the same file every round.
 */
final class ExportReading {
  private ExportReading() {}

  record Result(Rate plainConsumer, Rate export, Exporter.Summary summary) {
    double ratio() {
      return export.perSecond() / plainConsumer.perSecond();
    }
  }

  static Result measure(String bootstrapServers, List<String> topics, Path file, int rounds) {
    Rate plain = null;
    Rate export = null;
    Exporter.Summary summary = null;
    for (int i = 0; i < rounds; i++) {
      plain = Rate.best(plain, Rate.measure("Kafka: plain consumer loop (bytes only)",
          () -> KafkaReading.plain(bootstrapServers, topics)));
      var done = new Exporter.Summary[1];
      export = Rate.best(export, Rate.measure("kvfleet export (merge + check + zstd)", () -> {
        done[0] = Exporter.export(new Exporter.Options(bootstrapServers, topics, Map.of(), null, null, null),
            file, Clock.systemUTC(), false);
        return done[0].records();
      }));
      summary = done[0];
    }
    return new Result(plain, export, summary);
  }
}
