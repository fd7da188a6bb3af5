package io.kvfleet.control.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kvfleet.control.KvfleetException;
import io.kvfleet.control.dataplane.InProcessDataPlane;
import io.kvfleet.control.kafka.Await;
import io.kvfleet.control.kafka.Collected;
import io.kvfleet.control.kafka.EmbeddedKafka;
import io.kvfleet.control.kafka.EventPublisher;
import io.kvfleet.control.kafka.EventTail;
import io.kvfleet.control.kafka.FleetTopics;
import io.kvfleet.control.kafka.OpenClients;
import io.kvfleet.events.PeerHeartbeat;
import io.kvfleet.events.PeerLeft;
import io.kvfleet.events.ReasonCodes;
import io.kvfleet.events.Topics;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * How an agent starts, fails to start, is fenced and stops, seen from its real Kafka clients
 * ({@link OpenClients} records where each was built and whether it was closed) and from the log of
 * an embedded broker.
 */
class AgentLifecycleIT {
  private static final Duration WAIT = Duration.ofSeconds(60);
  private final EmbeddedKafka kafka = EmbeddedKafka.startInTempDir();
  private final String servers = kafka.bootstrapServers();
  private final Vertx vertx = Vertx.vertx();
  private final List<AutoCloseable> owned = new ArrayList<>();

  AgentLifecycleIT() {
    OpenClients.watch(servers);
  }

  @AfterEach
  void close() throws Exception {
    await(vertx.close());
    for (var resource : owned.reversed()) {
      resource.close();
    }
    kafka.close();
  }

  @Test
  void buildsItsKafkaClientsOffTheEventLoopWhenItStartsAndWhenItJoinsAgain() throws Exception {
    FleetTopics.ensure(servers, (short) 1);
    var agent = agent("offloop-0");
    var rejoins = new java.util.concurrent.CopyOnWriteArrayList<String>();
    agent.onRejoin((was, now) -> rejoins.add(was + " -> " + now));
    await(vertx.deployVerticle(agent));
    assertThat(OpenClients.made(servers, "offloop-0-orders")).hasSize(1);
    assertThat(OpenClients.made(servers, "offloop-0-own-loss")).hasSize(1);

    agent.fenceNow("a drill");
    Await.until("the fenced agent to open its new loss reader", WAIT,
        () -> OpenClients.made(servers, "offloop-0-own-loss").size() == 2);
    Await.until("the fenced agent to join again", WAIT, () -> agent.epoch() != 1 && !agent.draining());
    Await.until("the rejoin to be told", WAIT, () -> !rejoins.isEmpty());
    assertThat(rejoins).containsExactly("1 -> " + agent.epoch());
    // Its readers and the new incarnation's producer: none was built on an event loop.
    assertThat(OpenClients.made(servers, "offloop-0")).hasSizeGreaterThanOrEqualTo(5)
        .allSatisfy(client -> assertThat(client.onEventLoop()).as(client.toString()).isFalse());
  }

  @Test
  void aStartThatFailsAfterItsOrderReaderOpenedClosesEveryReaderItOpened() throws Exception {
    FleetTopics.ensure(servers, (short) 1, List.of(Topics.TRANSFERS)); // no node topic: the loss reader fails
    var agent = agent("halfway-0");

    assertThatThrownBy(() -> await(vertx.deployVerticle(agent)))
        .hasMessageContaining("has no topic " + Topics.NODES);
    assertThat(OpenClients.made(servers, "halfway-0-orders")).as("the order reader was built").hasSize(1);
    assertThat(OpenClients.made(servers, "halfway-0-own-loss")).as("the loss reader was built").hasSize(1);
    assertThat(OpenClients.open(servers, "halfway-0-orders")).as("order readers still open").isEmpty();
    assertThat(OpenClients.open(servers, "halfway-0-own-loss")).as("loss readers still open").isEmpty();
  }

  @Test
  void aFencedAgentWhoseLossReaderCannotOpenClosesEachOneBeforeItTriesAgain() throws Exception {
    FleetTopics.ensure(servers, (short) 1);
    var agent = agent("rejoin-0");
    await(vertx.deployVerticle(agent));
    deleteTopic(Topics.NODES); // the readers of a new incarnation cannot open until it is back

    agent.fenceNow("a drill");
    Await.until("three tries to join again", WAIT, () -> OpenClients.made(servers, "rejoin-0-own-loss").size() >= 4);
    var readers = OpenClients.made(servers, "rejoin-0-own-loss");
    // Each try closes its reader when it fails, before the next try builds one; the newest may be opening.
    assertThat(readers.subList(0, readers.size() - 1)).as("loss readers of earlier tries still open")
        .allSatisfy(reader -> assertThat(OpenClients.open(servers, "rejoin-0-own-loss")).doesNotContain(reader));

    FleetTopics.ensure(servers, (short) 1);
    Await.until("the agent to join again once the topic is back", WAIT, () -> agent.epoch() != 1 && !agent.draining());
  }

  /**
   * An agent whose API port is taken fails before it joins. It used to join first: a second agent started by
   * mistake with the same id and a taken port made the one serving the node step aside, then died itself.
   */
  @Test
  void aStartWhoseApiCannotListenFailsBeforeItJoinsAndClosesItsReaders() throws Exception {
    FleetTopics.ensure(servers, (short) 1);
    var log = new Collected();
    owned.add(EventTail.start(servers, List.of(Topics.NODES), log::add));
    try (var taken = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      var agent = agent("taken-0", taken.getLocalPort()); // its API's port is in use

      assertThatThrownBy(() -> await(vertx.deployVerticle(agent))).hasMessageContaining("Address already in use");
    }
    assertThat(OpenClients.open(servers, "taken-0-")).as("readers still open").isEmpty();
    readPastTheGoodbyes("taken-0", log);
    assertThat(log.envelopes()).as("taken-0's records").noneMatch(e -> e.data() instanceof io.kvfleet.events.PeerJoined j
        && j.nodeId().equals("taken-0") || e.data() instanceof PeerLeft l && l.nodeId().equals("taken-0"));
  }

  @Test
  void aStopThatLandsWhileTheAgentIsFencedSaysGoodbyeOnceForThatEpoch() throws Exception {
    FleetTopics.ensure(servers, (short) 1);
    var log = new Collected();
    owned.add(EventTail.start(servers, List.of(Topics.NODES), log::add));
    var agent = agent("twice-0");
    String deployment = await(vertx.deployVerticle(agent));

    agent.fenceNow("a drill"); // on the agent's event loop, ahead of the stop below
    await(vertx.undeploy(deployment));
    // A worker's call to an agent that stopped registers nothing (it was taken during the stop's drain).
    assertThatThrownBy(() -> await(agent.register(List.of()))).cause().hasMessageContaining("agent is stopping");

    readPastTheGoodbyes("twice-0", log);
    assertThat(log.envelopes()).filteredOn(e -> e.data() instanceof PeerLeft l && l.nodeId().equals("twice-0")
        && l.epoch() == 1).as("peer.left records of twice-0 epoch 1").hasSize(1);
  }

  /**
   * A second agent started with the same node id: the fleet takes the newest join, and the first agent kept
   * heartbeating its stale epoch and telling its worker "registered" for regions the fleet held stale. It now
   * reads the other's join, fails what it holds, says goodbye, stops heartbeating and refuses its worker.
   */
  @Test
  void anAgentThatReadsAnotherJoinUnderItsNodeIdStopsServingForGood() throws Exception {
    FleetTopics.ensure(servers, (short) 1);
    var log = new Collected();
    owned.add(EventTail.start(servers, List.of(Topics.NODES), log::add));
    var first = agent("twin-0", -1, 1);
    await(vertx.deployVerticle(first));
    var second = agent("twin-0", -1, 2);
    await(vertx.deployVerticle(second));

    var other = await(first.superseded());
    assertThat(other.epoch()).isEqualTo(2);
    assertThatThrownBy(() -> await(first.register(List.of())))
        .cause().isInstanceOf(KvfleetException.class).hasMessageContaining("another agent joined as twin-0 (epoch 2");
    readPastTheGoodbyes("twin-0", log);
    long leftAt = log.envelopes().stream().filter(e -> e.data() instanceof PeerLeft l && l.nodeId().equals("twin-0")
        && l.epoch() == 1 && l.reason().equals(ReasonCodes.STALE_EPOCH)).mapToLong(e -> e.sequence()).findFirst()
        .orElseThrow(() -> new AssertionError("no peer.left STALE_EPOCH of twin-0 epoch 1 in " + log.envelopes()));
    Thread.sleep(1_500); // three heartbeat periods of the first agent
    readPastTheGoodbyes("twin-0", log);
    assertThat(log.envelopes()).as("heartbeats of twin-0 epoch 1 after its goodbye")
        .noneMatch(e -> e.data() instanceof PeerHeartbeat h && h.nodeId().equals("twin-0") && h.epoch() == 1
            && e.sequence() > leftAt);
    assertThat(second.superseded().isComplete()).as("the newer agent serves on").isFalse();
    assertThat(AgentApi.status(KvfleetException.superseded("twin-0", 1, 2, "h"))).isEqualTo(409);
  }

  /**
   * A join at a lower epoch (another agent on a host whose clock is behind) is one the fleet does not take over
   * this agent's (the fold keeps the higher epoch): this agent serves on rather than leave the node to nobody.
   */
  @Test
  void aJoinUnderItsNodeIdAtALowerEpochDoesNotMakeAnAgentStepAside() throws Exception {
    FleetTopics.ensure(servers, (short) 1);
    var log = new Collected();
    owned.add(EventTail.start(servers, List.of(Topics.NODES), log::add));
    var serving = agent("behind-0", -1, 5);
    await(vertx.deployVerticle(serving));
    await(vertx.deployVerticle(agent("behind-0", -1, 3)));

    Await.until("the join at epoch 3 in the log", WAIT, () -> log.envelopes().stream()
        .anyMatch(e -> e.data() instanceof io.kvfleet.events.PeerJoined j && j.epoch() == 3));
    readPastTheGoodbyes("behind-0", log);
    Thread.sleep(1_000); // two heartbeat periods for the serving agent's watch to read it

    assertThat(serving.superseded().isComplete()).isFalse();
    assertThat(await(serving.register(List.of())).outcome()).isNotNull();
  }

  /** Publishes a record after every goodbye on {@code nodeId}'s partition and waits for the tail to read it. */
  private void readPastTheGoodbyes(String nodeId, Collected log) throws Exception {
    try (var marker = new EventPublisher(servers, "marker-" + nodeId, 1, Clock.systemUTC())) {
      marker.publish(new PeerHeartbeat(nodeId, 999, 1_000), "").get(30, TimeUnit.SECONDS);
    }
    Await.until("the tail to read past the goodbyes of " + nodeId, WAIT, () -> log.envelopes().stream()
        .anyMatch(e -> e.data() instanceof PeerHeartbeat h && h.nodeId().equals(nodeId) && h.epoch() == 999));
  }

  private void deleteTopic(String topic) throws Exception {
    try (var admin = io.kvfleet.control.kafka.KafkaClients.admin(servers, java.util.Map.of())) {
      admin.deleteTopics(List.of(topic)).all().get(30, TimeUnit.SECONDS);
      Await.until(topic + " to be gone", WAIT, () -> {
        try {
          return !admin.listTopics().names().get(30, TimeUnit.SECONDS).contains(topic);
        } catch (Exception e) {
          throw new IllegalStateException(e);
        }
      });
    }
  }

  private NodeAgent agent(String nodeId) {
    return agent(nodeId, -1);
  }

  /** An agent with no buffers and a 500 ms heartbeat, its local API on {@code httpPort} (-1: none). */
  private NodeAgent agent(String nodeId, int httpPort) {
    return agent(nodeId, httpPort, 1);
  }

  private NodeAgent agent(String nodeId, int httpPort, long epoch) {
    var config = new AgentConfig(nodeId, epoch, "127.0.0.1", List.of(), RegistrationPolicy.CONTINUE_WITHOUT,
        Duration.ofMillis(500), httpPort);
    var publisher = new EventPublisher(servers, nodeId, epoch, Clock.systemUTC());
    owned.add(publisher);
    return new NodeAgent(config, new InProcessDataPlane(), publisher);
  }

  private static <T> T await(Future<T> future) throws Exception {
    return future.toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS);
  }
}
