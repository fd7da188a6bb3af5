package io.kvfleet.control.coordinator;

import static org.assertj.core.api.Assertions.assertThat;

import io.kvfleet.control.kafka.Await;
import io.kvfleet.control.kafka.DeadLetters;
import io.kvfleet.control.kafka.EmbeddedKafka;
import io.kvfleet.control.kafka.EventPublisher;
import io.kvfleet.control.kafka.FleetTopics;
import io.kvfleet.control.kafka.RawRecords;
import io.kvfleet.control.kafka.TransferEndings;
import io.kvfleet.events.ByteRange;
import io.kvfleet.events.Envelope;
import io.kvfleet.events.PeerJoined;
import io.kvfleet.events.ReasonCodes;
import io.kvfleet.events.Topics;
import io.kvfleet.events.TransferOp;
import io.kvfleet.events.TransferRequested;
import io.kvfleet.events.codec.EventCodec;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Requests written by an outside producer (a plain Kafka producer, not kvfleet's publisher) each
 * get exactly one ending: past their deadline when read, at a schema version this build cannot
 * read, with a zero-length range, under an id already used, in a partition their key does not
 * hash to (answered by whichever of two coordinators owns it); and a tombstone or any other record
 * the coordinator cannot fold is copied once to the dead-letter topic and stalls nothing, across a
 * restart. No agent runs: a request past its deadline is answered without one.
 */
class OneEndingIT {
  private static final Duration WAIT = Duration.ofSeconds(60);
  private static final EventCodec CODEC = new EventCodec();
  static EmbeddedKafka kafka;
  static Vertx vertx;
  /** Each test writes as its own incarnation of the outside router: the fold drops a redelivered (producer, epoch, sequence). */
  private final long epoch = System.nanoTime();
  private long sequence;

  @BeforeAll
  static void start() {
    kafka = EmbeddedKafka.startInTempDir();
    FleetTopics.ensure(kafka.bootstrapServers(), (short) 1);
    vertx = Vertx.vertx();
  }

  @AfterAll
  static void stop() throws Exception {
    vertx.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    kafka.close();
  }

  @Test
  void requestsWhoseDeadlinePassedBeforeTheyWereReadAreRejectedOnceAndNeverTimedOut() throws Exception {
    try (var coordinator = new Running("coordinator-late", null)) {
      List<String> ids = new ArrayList<>();
      try (var raw = new RawRecords(kafka.bootstrapServers())) {
        for (int i = 0; i < 24; i++) {
          ids.add("late-" + i);
          raw.send(Topics.TRANSFERS, "prefill-0", document(request("late-" + i, 0, -1_000)));
        }
      }
      var endings = awaitEndings(ids);
      assertThat(endings).allSatisfy((id, ends) -> assertThat(ends).as(id).containsExactly("rejected DEADLINE_PASSED"));
    }
  }

  @Test
  void anUnreadableRequestWhoseIdIsReadableIsRejectedWithItsReason() throws Exception {
    try (var coordinator = new Running("coordinator-unreadable", null);
        var raw = new RawRecords(kafka.bootstrapServers())) {
      var future = RawRecords.rewritten(envelope(request("future-1", 0, 60_000)), Map.of("schemaversion", 99));
      raw.send(Topics.TRANSFERS, "prefill-0", future);
      var empty = document(request("empty-1", 0, 60_000)).replace("\"length\":4096", "\"length\":0");
      raw.send(Topics.TRANSFERS, "prefill-0", empty);

      assertThat(awaitEndings(List.of("future-1", "empty-1")))
          .containsEntry("future-1", List.of("rejected SCHEMA_UNSUPPORTED"))
          .containsEntry("empty-1", List.of("rejected INVALID_REQUEST"));
    }
  }

  @Test
  void aDifferentRequestUnderAnIdAlreadyUsedIsRejectedAsADuplicateAndARetryIsNot() throws Exception {
    try (var coordinator = new Running("coordinator-dup", null);
        var raw = new RawRecords(kafka.bootstrapServers())) {
      var first = request("dup-1", 0, -1_000);
      raw.send(Topics.TRANSFERS, "prefill-0", document(first));
      awaitEndings(List.of("dup-1"));
      raw.send(Topics.TRANSFERS, "prefill-0", document(first)); // a retry: answered by the first answer
      raw.send(Topics.TRANSFERS, "prefill-0", document(request("dup-1", 8192, -1_000))); // other pages

      Await.until("the duplicate to be answered", WAIT, () -> endings(List.of("dup-1")).get("dup-1").size() >= 2);
      Thread.sleep(1_000); // several deadline checks
      assertThat(endings(List.of("dup-1")).get("dup-1"))
          .containsExactly("rejected DEADLINE_PASSED", "rejected DUPLICATE_TRANSFER");
      var state = coordinator.status();
      assertThat(state.inFlightTransfers()).as("the duplicate's rejection did not end or reopen the first").isZero();
    }
  }

  @Test
  void aTombstoneAndOtherPoisonAreCopiedOnceToTheDeadLetterTopicAndStallNoRestart() throws Exception {
    try (var raw = new RawRecords(kafka.bootstrapServers())) {
      try (var first = new Running("coordinator-poison", null)) {
        first.status();
      }
      int partition = Ownership.partitionOf("poison-0", FleetTopics.PARTITIONS);
      List<String> poison = new ArrayList<>();
      for (byte[] value : new byte[][] {"{not json".getBytes(StandardCharsets.UTF_8),
          RawRecords.rewritten(envelope(request("x", 0, 1)), Map.of("type", "io.kvfleet.transfer.teleported"))
              .getBytes(StandardCharsets.UTF_8),
          document(new PeerJoined("poison-0", 1, "h", "", List.of())).getBytes(StandardCharsets.UTF_8),
          null}) { // a tombstone, last in its partition
        poison.add(DeadLetters.keyOf(Topics.TRANSFERS, partition,
            raw.send(Topics.TRANSFERS, partition, "poison-0", value)));
      }
      try (var second = new Running("coordinator-poison", null)) {
        Await.until("the restarted coordinator to catch up past the tombstone", WAIT, () -> second.status().caughtUp());
        assertThat(second.status().poison()).isGreaterThanOrEqualTo(4);
      }
      try (var third = new Running("coordinator-poison", null)) {
        Await.until("the third incarnation to catch up", WAIT, () -> third.status().caughtUp());
        raw.send(Topics.TRANSFERS, "prefill-0", document(request("after-poison", 0, -1_000)));
        assertThat(awaitEndings(List.of("after-poison"))).containsEntry("after-poison",
            List.of("rejected DEADLINE_PASSED"));
      }
      var copies = deadLetters();
      assertThat(copies).as("no record copied twice, whatever the restarts").doesNotHaveDuplicates();
      assertThat(copies).as("each poison record copied").containsAll(poison);
    }
  }

  @Test
  void aGroupOfTwoAnswersEveryRequestWhicheverPartitionItLandedIn() throws Exception {
    try (var a = new Running("coordinator-ga", "group-misrouted");
        var b = new Running("coordinator-gb", "group-misrouted")) {
      Await.until("the two coordinators to share the partitions", WAIT,
          () -> a.status().ownedTransferPartitions().size() + b.status().ownedTransferPartitions().size()
              == FleetTopics.PARTITIONS);
      List<String> ids = new ArrayList<>();
      Map<String, String> expected = new HashMap<>();
      try (var raw = new RawRecords(kafka.bootstrapServers())) {
        for (int partition = 0; partition < FleetTopics.PARTITIONS; partition++) {
          for (String node : List.of("prefill-0", "prefill-1", "prefill-2")) {
            String id = "routed-" + partition + "-" + node;
            ids.add(id);
            var request = new TransferRequested(id, node, 1, "kv", "decode-0", 1, "kv", TransferOp.WRITE,
                List.of(new ByteRange(0, 0, 4096)), Instant.now().minusSeconds(1).toEpochMilli(), false);
            raw.send(Topics.TRANSFERS, partition, node, document(request).getBytes(StandardCharsets.UTF_8));
            expected.put(id, Ownership.partitionOf(node, FleetTopics.PARTITIONS) == partition
                ? "rejected DEADLINE_PASSED" : "rejected MISROUTED");
          }
        }
      }
      var endings = awaitEndings(ids);
      expected.forEach((id, ending) -> assertThat(endings.get(id)).as(id).containsExactly(ending));
    }
  }

  /** Waits until each of {@code ids} has an ending, lets several deadline checks pass, and reads them again. */
  private static Map<String, List<String>> awaitEndings(List<String> ids) throws Exception {
    Await.until("an ending for each of " + ids.size() + " requests", WAIT,
        () -> endings(ids).values().stream().noneMatch(List::isEmpty));
    Thread.sleep(1_000); // five deadline checks: a second ending would come within them
    return endings(ids);
  }

  private static Map<String, List<String>> endings(List<String> ids) {
    return TransferEndings.of(kafka.bootstrapServers(), ids);
  }

  private static List<String> deadLetters() {
    return TransferEndings.readAll(kafka.bootstrapServers(), Topics.DEADLETTER).stream()
        .map(r -> new String(r.key(), StandardCharsets.UTF_8)).toList();
  }

  private TransferRequested request(String id, long sourceOffset, long deadlineFromNow) {
    return new TransferRequested(id, "prefill-0", 1, "kv", "decode-0", 1, "kv", TransferOp.WRITE,
        List.of(new ByteRange(sourceOffset, 0, 4096)), Instant.now().toEpochMilli() + deadlineFromNow, false);
  }

  private Envelope envelope(io.kvfleet.events.FleetEvent event) {
    return Envelope.of("outside-router", epoch, ++sequence, Instant.now(), "", event);
  }

  private String document(io.kvfleet.events.FleetEvent event) {
    return new String(CODEC.encode(envelope(event)), StandardCharsets.UTF_8);
  }

  /** A coordinator deployed until closed (its publisher closed with it). */
  private static final class Running implements AutoCloseable {
    private final String id;
    private final EventPublisher events;
    private final String deployment;

    Running(String id, String group) throws Exception {
      this.id = id;
      this.events = new EventPublisher(kafka.bootstrapServers(), id, System.nanoTime(), Clock.systemUTC());
      var coordinator = new Coordinator(kafka.bootstrapServers(), events, Clock.systemUTC());
      this.deployment = await(vertx.deployVerticle(group == null ? coordinator : coordinator.withGroup(group)));
    }

    CoordinatorStatus status() {
      return BadRecordsIT.statusOf(vertx, id);
    }

    @Override
    public void close() throws Exception {
      await(vertx.undeploy(deployment));
      events.close();
    }
  }

  private static <T> T await(Future<T> future) throws Exception {
    return future.toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS);
  }
}
