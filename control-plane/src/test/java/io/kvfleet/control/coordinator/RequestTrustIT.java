package io.kvfleet.control.coordinator;

import static org.assertj.core.api.Assertions.assertThat;

import io.kvfleet.control.kafka.EventPublisher;
import io.kvfleet.control.replay.Cli;
import io.kvfleet.events.PeerJoined;
import io.kvfleet.events.TransferRequested;
import io.kvfleet.events.trust.FleetKey;
import io.kvfleet.events.trust.KeyBinding;
import io.kvfleet.events.trust.Role;
import io.kvfleet.events.trust.Signing;
import io.kvfleet.events.trust.TrustFile;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code kvfleet request} in a fleet that verifies: signed with a node's key, it waited the deadline and 30 s more,
 * then advised "give --key" to a user who had. It now hears the refusal from the dead letters, and with
 * {@code --trust} refuses the wrong key before it asks.
 */
class RequestTrustIT {
  @TempDir Path dir;

  @Test
  void aRequestSignedWithAKeyThatMayNotAskIsToldWhyAtOnce() throws Exception {
    try (var fleet = new Fleet()) {
      String bootstrap = fleet.kafka.bootstrapServers();
      var coordinatorKey = FleetKey.generate("coordinator");
      var nodeKey = FleetKey.generate("prefill-0");
      var trust = TrustFile.of(
          new KeyBinding("coordinator", coordinatorKey.publicKey(), Role.COORDINATOR, Set.of("coordinator"), Set.of()),
          new KeyBinding("prefill-0", nodeKey.publicKey(), Role.NODE, Set.of("prefill-0"), Set.of("prefill-0")));
      Path trustFile = dir.resolve("trust.json");
      trust.save(trustFile);
      Path nodeKeyFile = dir.resolve("prefill-0.key");
      nodeKey.save(nodeKeyFile);
      var events = new EventPublisher(bootstrap, "coordinator", 1, Clock.systemUTC(), 10_000,
          Optional.of(coordinatorKey));
      Fleet.await(fleet.vertx.deployVerticle(new Coordinator(bootstrap, events, Clock.systemUTC())
          .withSigning(Signing.of(coordinatorKey, trust))));
      fleet.publishAs("prefill-0", 5, new PeerJoined("prefill-0", 5, "h", "", List.of()));
      fleet.publishAs("decode-0", 6, new PeerJoined("decode-0", 6, "h", "", List.of()));
      io.kvfleet.control.kafka.Await.until("both joins read back", java.time.Duration.ofSeconds(60),
          () -> fleet.log.envelopes().stream().filter(e -> e.data() instanceof PeerJoined).count() == 2);

      var checked = Cli.run("request", "--bootstrap-servers", bootstrap, "--from", "prefill-0/kv_data-0",
          "--to", "decode-0/kv_data-0", "--bytes", "4096", "--id", "cli-checked", "--key", nodeKeyFile.toString(),
          "--trust", trustFile.toString());
      var asked = Cli.run("request", "--bootstrap-servers", bootstrap, "--from", "prefill-0/kv_data-0",
          "--to", "decode-0/kv_data-0", "--bytes", "4096", "--id", "cli-asked", "--key", nodeKeyFile.toString());

      assertThat(checked.exitCode()).as(checked.err()).isEqualTo(2);
      assertThat(checked.err()).contains("key 'prefill-0'", "is a node key, and a router needs a router key",
          "kvfleet keys new --id prefill-0 --role router");
      assertThat(fleet.events("cli-checked", TransferRequested.class::isInstance)).as("asked nonetheless").isEmpty();
      assertThat(asked.exitCode()).as(asked.out() + asked.err()).isEqualTo(1);
      assertThat(asked.err()).contains("a coordinator refused the request unread, so no answer will come",
          "EVENT_WRONG_ROLE");
    }
  }
}
