package io.kvfleet.control.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kvfleet.control.KvfleetException;
import io.kvfleet.control.KvfleetException.Kind;
import io.kvfleet.control.kafka.EmbeddedKafka;
import io.kvfleet.control.kafka.EventPublisher;
import io.kvfleet.control.kafka.FleetTopics;
import io.kvfleet.control.kafka.TransferPlacement;
import io.kvfleet.events.BackendCapability;
import io.kvfleet.events.FleetEvent;
import io.kvfleet.events.MemoryType;
import io.kvfleet.events.PeerHeartbeat;
import io.kvfleet.events.PeerJoined;
import io.kvfleet.events.trust.FleetKey;
import io.kvfleet.events.trust.KeyBinding;
import io.kvfleet.events.trust.Role;
import io.kvfleet.events.trust.Signing;
import io.kvfleet.events.trust.TrustFile;
import io.kvfleet.events.trust.Verifier;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * What a starting agent reads back from a real broker's node topic before it picks its epoch: the highest
 * epoch of its node that the fleet would trust, however far back its join lies behind other nodes' records.
 */
class PriorEpochIT {
  private static final FleetKey OWN = FleetKey.generate("signed-0");
  private static final TrustFile TRUST = TrustFile.of(
      new KeyBinding("signed-0", OWN.publicKey(), Role.NODE, Set.of("signed-0", "signed-1"),
          Set.of("signed-0", "signed-1")));

  // One broker for the class: each test reads a node id of its own.
  private static EmbeddedKafka kafka;
  private static String servers;

  @BeforeAll
  static void start() {
    kafka = EmbeddedKafka.startInTempDir();
    servers = kafka.bootstrapServers();
    FleetTopics.ensure(servers, (short) 1);
  }

  @AfterAll
  static void close() {
    kafka.close();
  }

  @Test
  void aNodeTheLogDoesNotHoldJoinsAtItsClock() {
    write("other-0", 5, Optional.empty(), join("other-0", 5));

    var found = PriorEpoch.read(servers, "fresh-0", Verifier.off());

    assertThat(found.highest()).isEmpty();
    assertThat(found.complete()).isTrue();
    assertThat(found.joinAt("fresh-0", 1_000)).isEqualTo(1_000);
    assertThat(found.warning("fresh-0", 1_000)).isEmpty();
  }

  @Test
  void aClockBehindTheLastIncarnationJoinsAboveItAndSaysWhy() {
    long clock = System.currentTimeMillis();
    long ahead = clock + 3_600_000; // the host it last ran on was an hour ahead
    write("clock-0", ahead, Optional.empty(), join("clock-0", ahead), heartbeat("clock-0", ahead),
        heartbeat("clock-0", ahead));

    var found = PriorEpoch.read(servers, "clock-0", Verifier.off());

    assertThat(found.highest()).isEqualTo(OptionalLong.of(ahead));
    assertThat(found.joinAt("clock-0", clock)).isEqualTo(ahead + 1);
    assertThat(found.warning("clock-0", clock)).get().asString()
        .contains("the log holds a join of clock-0 at epoch " + ahead, "it joins at " + (ahead + 1), "clock is behind");
  }

  @Test
  void aJoinFarBehindOtherNodesRecordsIsFoundWindowByWindow() {
    long epoch = System.currentTimeMillis() + 60_000;
    write("far-0", epoch, Optional.empty(), join("far-0", epoch));
    String neighbour = neighbourOf("far-0"); // written to the same partition after it
    int after = PriorEpoch.FIRST_WINDOW * 3;
    write(neighbour, 7, Optional.empty(), IntStream.range(0, after).mapToObj(i -> heartbeat(neighbour, 7))
        .toArray(FleetEvent[]::new));

    var found = PriorEpoch.read(servers, "far-0", Verifier.off());

    assertThat(found.highest()).isEqualTo(OptionalLong.of(epoch));
    assertThat(found.read()).isGreaterThan(after);
    assertThat(found.complete()).isTrue();
  }

  @Test
  void newerRecordsOfAnIgnoredLowerEpochDoNotHideTheHigherJoinBeforeThemInTheirWindow() {
    long high = System.currentTimeMillis() + 60_000;
    write("twin-0", high, Optional.empty(), join("twin-0", high), heartbeat("twin-0", high));
    long low = high - 30_000; // a join the fleet ignored, and its heartbeats after it
    write("twin-0", low, Optional.empty(), join("twin-0", low), heartbeat("twin-0", low), heartbeat("twin-0", low));

    assertThat(PriorEpoch.read(servers, "twin-0", Verifier.off()).highest()).isEqualTo(OptionalLong.of(high));
  }

  @Test
  void aSignedFleetCountsOnlyJoinsItWouldTrust() {
    var verifier = Verifier.of(Signing.of(OWN, TRUST));
    long own = System.currentTimeMillis() - 1_000;
    write("signed-0", own, Optional.of(OWN), join("signed-0", own));
    write("signed-0", Long.MAX_VALUE, Optional.empty(), join("signed-0", Long.MAX_VALUE)); // unsigned: forged

    var found = PriorEpoch.read(servers, "signed-0", verifier);

    assertThat(found.highest()).isEqualTo(OptionalLong.of(own));
    assertThat(found.joinAt("signed-0", System.currentTimeMillis())).isGreaterThan(own);
    // Unsigned, the same log leaves no epoch to join at, and the agent says so.
    var unsigned = PriorEpoch.read(servers, "signed-0", Verifier.off());
    assertThat(unsigned.highest()).isEqualTo(OptionalLong.of(Long.MAX_VALUE));
    assertThatThrownBy(() -> unsigned.joinAt("signed-0", System.currentTimeMillis()))
        .isInstanceOfSatisfying(KvfleetException.class, e -> assertThat(e.kind()).isEqualTo(Kind.BAD_INPUT))
        .hasMessageContaining("written as 'signed-0'").hasMessageContaining("another --id");
  }

  /** The fold ignores a heartbeat at any epoch but the node's current one: one at a huge epoch says nothing. */
  @Test
  void aHeartbeatAtAHugeEpochWithoutItsJoinDoesNotRaiseTheEpoch() {
    long epoch = System.currentTimeMillis() - 60_000;
    write("beat-0", epoch, Optional.empty(), join("beat-0", epoch), heartbeat("beat-0", epoch));
    write("mallory", 1, Optional.empty(), heartbeat("beat-0", Long.MAX_VALUE));

    var found = PriorEpoch.read(servers, "beat-0", Verifier.off());

    assertThat(found.highest()).isEqualTo(OptionalLong.of(epoch));
    long clock = System.currentTimeMillis();
    assertThat(found.joinAt("beat-0", clock)).isEqualTo(clock);
  }

  /** A node that heartbeated for a long time: its newest records are heartbeats, and its join lies far behind. */
  @Test
  void aLongLivedIncarnationsJoinIsFoundBehindItsHeartbeats() {
    long epoch = System.currentTimeMillis() + 60_000;
    write("long-0", epoch, Optional.empty(), join("long-0", epoch));
    String neighbour = neighbourOf("long-0");
    write(neighbour, 7, Optional.empty(), IntStream.range(0, PriorEpoch.FIRST_WINDOW * 2)
        .mapToObj(i -> heartbeat(neighbour, 7)).toArray(FleetEvent[]::new));
    write("long-0", epoch, Optional.empty(), heartbeat("long-0", epoch), heartbeat("long-0", epoch));

    var found = PriorEpoch.read(servers, "long-0", Verifier.off());

    assertThat(found.highest()).isEqualTo(OptionalLong.of(epoch));
    assertThat(found.complete()).isTrue();
  }

  /**
   * A writer without the node's key cannot hold its start up: every record that would raise the epoch is checked,
   * and each check of a forged one may cost a signature's verification, so the read stops after enough refusals.
   */
  @Test
  void aSignedFleetsReadStopsAfterEnoughForgedJoinsAndKeepsTheTrustedOne() {
    var verifier = Verifier.of(Signing.of(OWN, TRUST));
    long own = System.currentTimeMillis() - 1_000;
    write("signed-1", own, Optional.of(OWN), join("signed-1", own));
    write("mallory", 1, Optional.empty(), IntStream.range(0, PriorEpoch.REFUSALS + 500)
        .mapToObj(i -> join("signed-1", own + 1 + i)).toArray(FleetEvent[]::new));

    var found = PriorEpoch.read(servers, "signed-1", verifier);

    assertThat(found.highest()).isEqualTo(OptionalLong.of(own));
    assertThat(found.complete()).isFalse();
    assertThat(found.cutShort()).contains(PriorEpoch.REFUSALS + " records under its key that the trust file refuses");
  }

  @Test
  void aReadThatRunsOutOfItsBudgetSaysHowFarItWent() {
    long epoch = System.currentTimeMillis() + 60_000;
    write("budget-0", epoch, Optional.empty(), join("budget-0", epoch));
    String neighbour = neighbourOf("budget-0");
    write(neighbour, 7, Optional.empty(), IntStream.range(0, 3_000).mapToObj(i -> heartbeat(neighbour, 7))
        .toArray(FleetEvent[]::new));

    var found = PriorEpoch.read(servers, "budget-0", Verifier.off(), 1_000);

    assertThat(found.read()).isEqualTo(1_000);
    assertThat(found.complete()).isFalse();
    assertThat(found.highest()).isEmpty();
    assertThat(found.warning("budget-0", epoch - 1)).get().asString().contains("read 1000 records back");
  }

  private void write(String node, long epoch, Optional<FleetKey> key, FleetEvent... events) {
    try (var publisher = new EventPublisher(servers, node, epoch, Clock.systemUTC(), 1 << 16,
        key)) {
      java.util.concurrent.CompletableFuture<?> last = null;
      for (var event : events) {
        last = publisher.publish(event, node);
      }
      last.join(); // one producer: acknowledged in order
    }
  }

  private static PeerJoined join(String node, long epoch) {
    return new PeerJoined(node, epoch, "127.0.0.1", "AAECAwQFBgc=",
        List.of(new BackendCapability("host", true, "", List.of(MemoryType.DRAM), List.of("memcpy"), "")));
  }

  private static PeerHeartbeat heartbeat(String node, long epoch) {
    return new PeerHeartbeat(node, epoch, 3_000);
  }

  /** Another node id whose records go to the same node-topic partition as {@code node}'s. */
  private static String neighbourOf(String node) {
    int partition = TransferPlacement.partitionOf(node, FleetTopics.PARTITIONS);
    return IntStream.range(0, 1_000).mapToObj(i -> "neighbour-" + i)
        .filter(n -> TransferPlacement.partitionOf(n, FleetTopics.PARTITIONS) == partition).findFirst().orElseThrow();
  }
}
