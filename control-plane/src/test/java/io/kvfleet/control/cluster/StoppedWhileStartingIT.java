package io.kvfleet.control.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * A node stopped (Ctrl-C, SIGTERM) while it starts left without a word: whether it had written anything was a
 * guess.
 */
class StoppedWhileStartingIT {

  @Test
  void aNodeStoppedBeforeItJoinedSaysItWroteNothing() throws Exception {
    int port = FreePorts.clusterBase();
    // Kafka at port 1 never answers: the start waits in its Kafka step, before any join.
    try (var node = KvfleetProcess.start("stopped-while-starting", "node", "--id", "early-0", "--bootstrap-servers",
        "127.0.0.1:1", "--cluster-name", "it-early-" + UUID.randomUUID().toString().substring(0, 8), "--cluster-port",
        Integer.toString(port), "--cluster-members", FreePorts.members(port))) {
      io.kvfleet.control.kafka.Await.until("the node's start under way", java.time.Duration.ofSeconds(60),
          () -> node.console().contains("the EventBus is in the clear"));

      ProcessHandle.of(node.pid()).orElseThrow().destroy(); // SIGTERM, as a Ctrl-C's shutdown runs

      node.exitCode(60);
      assertThat(node.console()).contains("kvfleet node: early-0 stopped while starting, before it joined: it wrote"
          + " nothing to the log");
    }
  }
}
