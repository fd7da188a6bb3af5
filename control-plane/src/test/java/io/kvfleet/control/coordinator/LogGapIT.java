package io.kvfleet.control.coordinator;

import static org.assertj.core.api.Assertions.assertThat;

import io.kvfleet.control.dataplane.InProcessDataPlane;
import io.kvfleet.control.kafka.Await;
import io.kvfleet.events.Topics;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.RecordsToDelete;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The log is the fleet's source of truth, so kvfleet keeps its topics forever; and a coordinator
 * whose log lost events before it read them (a retention, {@code deleteRecords}) says how many,
 * rather than fold what is left as if it were the whole.
 */
class LogGapIT {
  private static final Duration WAIT = Duration.ofSeconds(60);
  private final Fleet fleet = new Fleet();

  @AfterEach
  void close() throws Exception {
    fleet.close();
  }

  /** Whether the coordinator answered that it caught up (a request that fails counts as not yet). */
  private boolean caughtUp() {
    try {
      return fleet.status("coordinator").caughtUp();
    } catch (Exception e) {
      return false;
    }
  }

  private Admin admin() {
    return Admin.create(Map.of("bootstrap.servers", fleet.kafka.bootstrapServers()));
  }

  @Test
  void theFleetTopicsAreKeptForeverNotForTheBrokersSevenDays() throws Exception {
    try (var admin = admin()) {
      for (String topic : List.of(Topics.NODES, Topics.TRANSFERS, Topics.DEADLETTER)) {
        var resource = new ConfigResource(ConfigResource.Type.TOPIC, topic);
        var config = admin.describeConfigs(List.of(resource)).all().get().get(resource);
        assertThat(config.get(TopicConfig.RETENTION_MS_CONFIG).value()).as(topic).isEqualTo("-1");
      }
    }
  }

  @Test
  void aCoordinatorSaysHowManyEventsTheLogLostBeforeItReadThem() throws Exception {
    fleet.startAgent("prefill-0", 1, new InProcessDataPlane(), Duration.ofMillis(500));
    String whole = fleet.startCoordinator();
    Await.until("the coordinator to catch up", WAIT, this::caughtUp);
    assertThat(fleet.status("coordinator").missingEvents()).as("nothing deleted yet").isZero();
    fleet.stop(whole);

    Map<TopicPartition, Long> deleted = new HashMap<>();
    try (var admin = admin()) {
      var partitions = new HashMap<TopicPartition, OffsetSpec>();
      for (int p = 0; p < fleet.partitions(Topics.NODES); p++) {
        partitions.put(new TopicPartition(Topics.NODES, p), OffsetSpec.latest());
      }
      admin.listOffsets(partitions).all().get().forEach((tp, info) -> {
        if (info.offset() > 0) {
          deleted.put(tp, info.offset());
        }
      });
      var deleting = new HashMap<TopicPartition, RecordsToDelete>();
      deleted.forEach((tp, offset) -> deleting.put(tp, RecordsToDelete.beforeOffset(offset)));
      admin.deleteRecords(deleting).all().get();
    }
    assertThat(deleted).as("prefill-0's join, registration and heartbeats").isNotEmpty();

    fleet.startCoordinator();
    Await.until("the next coordinator to catch up", WAIT, this::caughtUp);
    assertThat(fleet.status("coordinator").missingEvents())
        .isEqualTo(deleted.values().stream().mapToLong(Long::longValue).sum());
  }
}
