package io.kvfleet.control.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.kvfleet.control.kafka.Await;
import io.kvfleet.control.kafka.RawRecords;
import io.kvfleet.control.kafka.TransferEndings;
import io.kvfleet.events.ByteRange;
import io.kvfleet.events.Envelope;
import io.kvfleet.events.Topics;
import io.kvfleet.events.TransferOp;
import io.kvfleet.events.TransferRequested;
import io.kvfleet.events.codec.EventCodec;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A coordinator killed with SIGKILL and started again, as OS processes, while an outside producer
 * (a plain Kafka producer) writes requests whose deadline has passed or is about to: each request
 * ends exactly once, the ones that piled up while no coordinator ran included.
 */
class CoordinatorRestartIT {
  private static final int REQUESTS = 60;
  private final EventCodec codec = new EventCodec();
  private final String cluster = "restart-it-" + ProcessHandle.current().pid();

  @Test
  void everyRequestEndsOnceAcrossAKillAndARestartOfTheCoordinator() throws Exception {
    try (var kafka = KvfleetProcess.start("restart-kafka", "kafka")) {
      String bootstrap = kafka.awaitValue("kvfleet-kafka", 180);
      var first = coordinator(bootstrap, "restart-coordinator-1");
      List<String> ids = new ArrayList<>();
      try (var raw = new RawRecords(bootstrap)) {
        for (int i = 0; i < REQUESTS; i++) {
          if (i == REQUESTS / 3) {
            first.kill();
          }
          if (i == 2 * REQUESTS / 3) {
            coordinator(bootstrap, "restart-coordinator-2").close(); // up, caught up, then stopped cleanly
            first = coordinator(bootstrap, "restart-coordinator-3");
          }
          String id = "restart-" + i;
          ids.add(id);
          // Half past their deadline when written, half a second ahead (they wait for peers that never join).
          long deadline = Instant.now().toEpochMilli() + (i % 2 == 0 ? -1_000 : 500);
          var request = new TransferRequested(id, "prefill-0", 1, "kv", "decode-0", 1, "kv", TransferOp.WRITE,
              List.of(new ByteRange(0, 0, 4096)), deadline, false);
          raw.send(Topics.TRANSFERS, "prefill-0", codec.encode(Envelope.of("outside-router", 1, i + 1, Instant.now(),
              "", request)));
          Thread.sleep(50);
        }
      }
      try (var last = first) {
        Await.until("an ending for each request", Duration.ofSeconds(90),
            () -> TransferEndings.of(bootstrap, ids).values().stream().noneMatch(List::isEmpty));
        Thread.sleep(2_000); // ten deadline checks and the waiting grace: a second ending would come within them
        Map<String, List<String>> endings = TransferEndings.of(bootstrap, ids);
        System.out.println("coordinator restarts: " + REQUESTS + " requests, endings "
            + endings.values().stream().mapToInt(List::size).sum() + ", with 0 endings "
            + endings.values().stream().filter(List::isEmpty).count() + ", with 2+ "
            + endings.values().stream().filter(e -> e.size() > 1).count());
        assertThat(endings).allSatisfy((id, ends) -> assertThat(ends).as(id).hasSize(1));
      }
    }
  }

  private KvfleetProcess coordinator(String bootstrap, String name) throws Exception {
    var process = KvfleetProcess.start(name, "coordinator", "--id", "coordinator-0", "--bootstrap-servers", bootstrap,
        "--cluster-name", cluster);
    process.awaitValue("kvfleet-coordinator", 180);
    return process;
  }
}
