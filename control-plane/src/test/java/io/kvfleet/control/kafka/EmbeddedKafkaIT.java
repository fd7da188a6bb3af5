package io.kvfleet.control.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kvfleet.control.KvfleetException;
import io.kvfleet.events.Topics;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Starting a broker where it cannot run says why, and leaves a running broker untouched. */
class EmbeddedKafkaIT {
  @Test
  void refusesADataFolderAnotherBrokerRunsOnAndLeavesThatBrokerWorking(@TempDir Path dir) throws Exception {
    try (var running = EmbeddedKafka.start(dir, false, 0)) {
      assertThatThrownBy(() -> EmbeddedKafka.start(dir, false, 0)).isInstanceOf(KvfleetException.class)
          .hasMessage(dir + " is in use by another running broker: stop it first, or choose another --data-dir");

      FleetTopics.ensure(running.bootstrapServers(), (short) 1);
      try (var publisher = new EventPublisher(running.bootstrapServers(), "router", 1, Clock.systemUTC())) {
        publisher.publish(new io.kvfleet.events.PeerLeft("prefill-0", 1, "SHUTDOWN"), "")
            .get(30, TimeUnit.SECONDS);
      }
    }
    var got = new Collected();
    try (var next = EmbeddedKafka.start(dir, false, 0);
        var tail = EventTail.start(next.bootstrapServers(), Topics.ALL, got::add)) {
      Await.until("the event written before, read from the same folder", Duration.ofSeconds(60),
          () -> got.size() == 1);
    }
  }

  @Test
  void namesAPortInUseInsteadOfFailingWithATrace(@TempDir Path dir) {
    try (var running = EmbeddedKafka.startInTempDir()) {
      int port = Integer.parseInt(running.bootstrapServers().substring(running.bootstrapServers().indexOf(':') + 1));

      assertThatThrownBy(() -> EmbeddedKafka.start(dir, false, port)).isInstanceOf(KvfleetException.class)
          .hasMessageStartingWith("cannot start the broker: ").hasMessageContaining("127.0.0.1:" + port)
          .hasMessageEndingWith(" (choose another --port)");
    }
    try (var again = EmbeddedKafka.start(dir, false, 0)) {
      assertThat(again.dataDir()).as("the failed start let go of its folder").isEqualTo(dir);
    }
  }
}
