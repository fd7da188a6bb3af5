package io.kvfleet.control.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.kvfleet.control.kafka.EmbeddedKafka;
import io.kvfleet.control.kafka.EventPublisher;
import io.kvfleet.control.kafka.FleetTopics;
import io.kvfleet.control.replay.Cli;
import io.kvfleet.events.ByteRange;
import io.kvfleet.events.FleetEvent;
import io.kvfleet.events.PeerJoined;
import io.kvfleet.events.PeerLeft;
import io.kvfleet.events.TransferOp;
import io.kvfleet.events.TransferRequested;
import java.time.Clock;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** {@code kvfleet tail} on a real broker: the history in time order across the topics, then what comes. */
class TailIT {
  @Test
  void printsTheHistoryInTimeOrderAcrossTheTopicsThenFollows() throws Exception {
    try (var kafka = EmbeddedKafka.startInTempDir();
        var node = publisher(kafka, "prefill-0");
        var router = publisher(kafka, "router")) {
      publish(node, new PeerJoined("prefill-0", 1, "h", "", List.of()));
      publish(router, new TransferRequested("t-1", "prefill-0", 1, "kv", "decode-0", 1, "kv", TransferOp.WRITE,
          List.of(new ByteRange(0, 0, 4096)), System.currentTimeMillis() + 60_000, false));
      publish(node, new PeerLeft("prefill-0", 1, "SHUTDOWN"));
      var later = CompletableFuture.runAsync(() -> {
        sleep(3_000);
        publish(node, new PeerJoined("prefill-0", 2, "h", "", List.of()));
      });

      var run = Cli.run("tail", "--bootstrap-servers", kafka.bootstrapServers(), "--duration", "8s");
      later.get(30, TimeUnit.SECONDS);

      assertThat(run.exitCode()).as(run.err()).isZero();
      var types = List.of("peer.joined", "transfer.requested", "peer.left");
      assertThat(run.out().lines().flatMap(l -> types.stream().filter(l::contains)).toList())
          .as("history by time across the topics, then the event that came while it followed")
          .containsExactly("peer.joined", "transfer.requested", "peer.left", "peer.joined");
    }
  }

  private static EventPublisher publisher(EmbeddedKafka kafka, String producer) {
    FleetTopics.ensure(kafka.bootstrapServers(), (short) 1);
    return new EventPublisher(kafka.bootstrapServers(), producer, 1, Clock.systemUTC());
  }

  private static void publish(EventPublisher publisher, FleetEvent event) {
    try {
      publisher.publish(event, "").get(30, TimeUnit.SECONDS);
      Thread.sleep(20); // distinct record times
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
