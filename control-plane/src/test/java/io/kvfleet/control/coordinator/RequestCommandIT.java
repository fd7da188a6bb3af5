package io.kvfleet.control.coordinator;

import static org.assertj.core.api.Assertions.assertThat;

import io.kvfleet.control.dataplane.InProcessDataPlane;
import io.kvfleet.control.kafka.Await;
import io.kvfleet.control.replay.Cli;
import io.kvfleet.events.PeerJoined;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** {@code kvfleet request}: a fleet of processes had no way to be asked for a transfer but a hand-made record. */
class RequestCommandIT {

  @Test
  void asksForATransferAtTheNodesCurrentEpochsAndPrintsItsOneEnding() throws Exception {
    try (var fleet = new Fleet()) {
      String bootstrap = fleet.kafka.bootstrapServers();
      fleet.startCoordinator();
      fleet.startAgent("prefill-0", 11, new InProcessDataPlane(), Duration.ofSeconds(1));
      String decode = fleet.startAgent("decode-0", 12, new InProcessDataPlane(), Duration.ofSeconds(1));
      Await.until("both agents joined", Duration.ofSeconds(30),
          () -> fleet.log.envelopes().stream().filter(e -> e.data() instanceof PeerJoined).count() == 2);

      var done = Cli.run("request", "--bootstrap-servers", bootstrap, "--from", "prefill-0/kv_data-0",
          "--to", "decode-0/kv_data-0", "--bytes", "4k", "--id", "cli-1");
      var outOfBounds = Cli.run("request", "--bootstrap-servers", bootstrap, "--from", "prefill-0/kv_data-0",
          "--to", "decode-0/kv_data-0", "--bytes", "4096", "--destination-offset", "1048576", "--id", "cli-2");
      var nobody = Cli.run("request", "--bootstrap-servers", bootstrap, "--from", "prefill-0/kv_data-0",
          "--to", "decode-9/kv_data-0", "--bytes", "4096");
      var shape = Cli.run("request", "--bootstrap-servers", bootstrap, "--from", "prefill-0", "--to", "decode-0/kv",
          "--bytes", "1");

      assertThat(done.exitCode()).as(done.out() + done.err()).isZero();
      assertThat(done.err()).contains("cli-1 asked: prefill-0@11/kv_data-0 -> decode-0@12/kv_data-0, 4,096 B");
      assertThat(done.out()).contains("cli-1").contains("completed");
      assertThat(outOfBounds.exitCode()).as(outOfBounds.out() + outOfBounds.err()).isEqualTo(1);
      assertThat(outOfBounds.out()).contains("OUT_OF_BOUNDS");
      assertThat(nobody.exitCode()).isEqualTo(2);
      assertThat(nobody.err()).contains("decode-9 never joined the fleet");
      // A node that left is asked all the same: the refusal is the fleet's, in the log, and counted.
      Fleet.await(fleet.vertx.undeploy(decode));
      Await.until("decode-0 left", Duration.ofSeconds(30), () -> fleet.log.envelopes().stream()
          .anyMatch(e -> e.data() instanceof io.kvfleet.events.PeerLeft));
      var left = Cli.run("request", "--bootstrap-servers", bootstrap, "--from", "prefill-0/kv_data-0",
          "--to", "decode-0/kv_data-0", "--bytes", "4096", "--id", "cli-3");
      assertThat(left.exitCode()).as(left.out() + left.err()).isEqualTo(1);
      assertThat(left.err()).contains("decode-0 epoch 12 is LEFT; asking all the same");
      assertThat(left.out()).contains("cli-3 REJECTED PEER_NOT_ALIVE");
      assertThat(shape.exitCode()).isEqualTo(2);
      assertThat(shape.err()).contains("--from prefill-0: give NODE/REGION");
    }
  }
}
