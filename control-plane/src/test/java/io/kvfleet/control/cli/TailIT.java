package io.kvfleet.control.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.kvfleet.control.kafka.EmbeddedKafka;
import io.kvfleet.control.kafka.EventPublisher;
import io.kvfleet.control.kafka.FleetTopics;
import io.kvfleet.control.kafka.TransferPlacement;
import io.kvfleet.control.replay.Cli;
import io.kvfleet.events.ByteRange;
import io.kvfleet.events.FleetEvent;
import io.kvfleet.events.PeerJoined;
import io.kvfleet.events.PeerLeft;
import io.kvfleet.events.PeerLost;
import io.kvfleet.events.TransferCompleted;
import io.kvfleet.events.TransferOp;
import io.kvfleet.events.TransferRequested;
import io.kvfleet.events.trust.FleetKey;
import io.kvfleet.events.trust.KeyBinding;
import io.kvfleet.events.trust.Role;
import io.kvfleet.events.trust.TrustFile;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Set;
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
      // A writer's escape sequences: a window title, a carriage return and a line break of its own.
      publish(node, new PeerLost("prefill-0", 1, "LEASE\u001b]0;PWNED\u0007\r\u001b[2K\nfake line", 0));
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
      assertThat(run.out()).doesNotContain("\u001b", "\u0007", "\r")
          .contains("LEASE\\x1b]0;PWNED\\x07\\x0d\\x1b[2K\\u000afake line");
    }
  }

  /**
   * An operator tails one node of a signed fleet: the node's own events and the transfers from and to it, each
   * event a verifying coordinator would refuse marked with its reason; before, tail had no filter and printed a
   * forged record as any other.
   */
  @Test
  void showsOneNodesEventsAndMarksWhatAVerifyingCoordinatorWouldRefuse(@org.junit.jupiter.api.io.TempDir Path dir)
      throws Exception {
    var decode = FleetKey.generate("decode-0");
    var prefill = FleetKey.generate("prefill-0");
    var router = FleetKey.generate("router");
    var trust = dir.resolve("trust.json");
    TrustFile.of(new KeyBinding("decode-0", decode.publicKey(), Role.NODE, Set.of("decode-0"), Set.of("decode-0")),
        new KeyBinding("prefill-0", prefill.publicKey(), Role.NODE, Set.of("prefill-0"), Set.of("prefill-0")),
        new KeyBinding("router", router.publicKey(), Role.ROUTER, Set.of("router"), Set.of())).save(trust);
    try (var kafka = EmbeddedKafka.startInTempDir();
        var node = signed(kafka, "decode-0", decode);
        var source = signed(kafka, "prefill-0", prefill);
        var other = publisher(kafka, "prefill-7");
        var routing = signed(kafka, "router", router);
        var forger = publisher(kafka, "prefill-0")) {
      publish(node, new PeerJoined("decode-0", 1, "h", "", List.of()));
      publish(other, new PeerJoined("prefill-7", 1, "h", "", List.of()));
      publish(routing, request("t-in", "prefill-0", "decode-0"));
      publish(routing, request("t-else", "prefill-7", "decode-9"));
      publish(forger, new TransferCompleted("t-in", "prefill-0", 4096, 1_000, "ucx/posix", ""));
      publish(source, new TransferCompleted("t-in", "prefill-0", 4096, 1_000, "ucx/posix", "")); // never dispatched
      int wrong = (TransferPlacement.partitionOf("prefill-0", FleetTopics.PARTITIONS) + 1) % FleetTopics.PARTITIONS;
      routing.publish(request("t-moved", "prefill-0", "decode-0"), "", wrong).get(30, TimeUnit.SECONDS);

      var run = Cli.run("tail", "--bootstrap-servers", kafka.bootstrapServers(), "--duration", "6s", "--node",
          "decode-0", "--trust", trust.toString());

      assertThat(run.exitCode()).as(run.err()).isZero();
      var lines = run.out().lines().toList();
      assertThat(lines).as(run.out()).hasSize(5);
      assertThat(lines.get(0)).contains("peer.joined", "decode-0").doesNotContain("UNAUTHENTICATED");
      assertThat(lines.get(1)).contains("transfer.requested", "t-in").doesNotContain("UNAUTHENTICATED");
      assertThat(lines.get(2)).startsWith("UNAUTHENTICATED (EVENT_UNSIGNED").contains("transfer.completed", "t-in");
      assertThat(lines.get(3)).startsWith("UNAUTHENTICATED (EVENT_NOT_DISPATCHED").contains("transfer.completed");
      assertThat(lines.get(4)).startsWith("UNAUTHENTICATED (EVENT_MISPLACED").contains("t-moved");
      assertThat(run.err()).doesNotContain("NOT checked");

      var completedOnly = Cli.run("tail", "--bootstrap-servers", kafka.bootstrapServers(), "--duration", "6s",
          "--transfer", "t-in", "--type", "transfer.completed");
      assertThat(completedOnly.out().lines().toList()).as(completedOnly.out()).hasSize(2)
          .allSatisfy(line -> assertThat(line).contains("transfer.completed", "t-in").doesNotContain("UNAUTH"));
      assertThat(completedOnly.err()).contains("signatures are NOT checked");

      var typo = Cli.run("tail", "--bootstrap-servers", kafka.bootstrapServers(), "--duration", "4s", "--type",
          "transfers.");
      assertThat(typo.out()).isEmpty();
      assertThat(typo.err()).contains("no event in the log so far matches --type transfers.");
    }
  }

  private static TransferRequested request(String id, String from, String to) {
    return new TransferRequested(id, from, 1, "kv", to, 1, "kv", TransferOp.WRITE, List.of(new ByteRange(0, 0, 4096)),
        System.currentTimeMillis() + 60_000, false);
  }

  private static EventPublisher signed(EmbeddedKafka kafka, String producer, FleetKey key) {
    FleetTopics.ensure(kafka.bootstrapServers(), (short) 1);
    return new EventPublisher(kafka.bootstrapServers(), producer, 1, Clock.systemUTC(),
        EventPublisher.DEFAULT_CAPACITY, java.util.Optional.of(key));
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
