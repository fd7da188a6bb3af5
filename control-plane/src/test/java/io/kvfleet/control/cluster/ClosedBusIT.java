package io.kvfleet.control.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.kvfleet.control.coordinator.CoordinatorStatus;
import io.kvfleet.control.protocol.Addresses;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.eventbus.ReplyFailure;
import io.vertx.core.internal.VertxInternal;
import io.vertx.core.spi.cluster.RegistrationInfo;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * A fleet closed by the fleet's certificates (a broker, a coordinator and a node agent as OS
 * processes, each with its certificate: mutual TLS on the EventBus, TLS with client authentication
 * on the JGroups membership), and two strangers who know the cluster name and ports: one with no
 * TLS, one with a certificate of its own CA. Neither enters the fleet's view, reads its
 * subscriptions, receives any of the messages sent to an agent's address it subscribed to, or
 * reaches a member with what it sends; a member holding the fleet's certificate joins and is
 * served. Every process listens (TCP and UDP) only on the cluster host, and the agent's API asks
 * for the token in its private file. On main's Hazelcast code four of these tests fail: both
 * strangers were in the view, read the agent's subscriptions and took 20 of 30 messages off the
 * round-robin, and Netty's resolver had a UDP socket on every interface.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ClosedBusIT {
  private static final String NODE = "prefill-0";
  private static final String COORDINATOR = "coordinator-closed-bus";
  private static final int MESSAGES = 30;
  private final List<AutoCloseable> owned = new ArrayList<>();
  private final List<Vertx> members = new ArrayList<>();
  private KvfleetProcess coordinator;
  private KvfleetProcess agent;
  private Path work;
  private Path tokenFile;
  private Vertx trusted;
  private List<Vertx> strangers;

  @BeforeAll
  void startFleet() throws Exception {
    work = Files.createTempDirectory("kvfleet-closed-bus");
    var fleetCa = FleetCertificates.newFleet(work, "fleet");
    var otherCa = FleetCertificates.newFleet(work, "other");
    var kafka = own(KvfleetProcess.start("closed-bus-kafka", "kafka"));
    String bootstrap = kafka.awaitValue("kvfleet-kafka", 180);
    int port = FreePorts.clusterBase();
    String name = "it-closed-bus-" + UUID.randomUUID().toString().substring(0, 8);
    List<String> cluster = List.of("--bootstrap-servers", bootstrap, "--cluster-name", name,
        "--cluster-port", Integer.toString(port), "--cluster-members", FreePorts.members(port));
    coordinator = own(KvfleetProcess.start("closed-bus-coordinator", with(cluster, "coordinator", "--id", COORDINATOR,
        "--cluster-tls-dir", fleetCa.member("coordinator").toString())));
    agent = own(KvfleetProcess.start("closed-bus-agent", with(cluster, "node", "--id", NODE,
        "--cluster-tls-dir", fleetCa.member("agent").toString(),
        "--api-token-file", work.resolve("tokens").resolve("agent.api-token").toString())));
    coordinator.awaitValue("kvfleet-coordinator", 180);
    agent.awaitValue("kvfleet-node-api", 180);
    tokenFile = Path.of(agent.awaitValue("kvfleet-node-api-token-file", 5));
    List<String> contacts = List.of(FreePorts.members(port));
    trusted = join(name, port, contacts, BusSecurity.fromDirectory(fleetCa.member("trusted")));
    strangers = List.of(join(name, port, contacts, BusSecurity.plaintext()),
        join(name, port, contacts, BusSecurity.fromDirectory(otherCa.member("stranger"))));
    // Two of JGroups' merge rounds (MembershipStack: every 2 to 6 s), in which members that found
    // each other would merge their views.
    Thread.sleep(12_000);
  }

  @AfterAll
  void stopFleet() throws Exception {
    for (var member : members) {
      member.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    }
    for (var resource : owned.reversed()) {
      resource.close();
    }
    try (var files = Files.walk(work)) { // the test's keys and token go with it
      for (Path file : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.delete(file);
      }
    }
  }

  @Test
  void aStrangerNeverEntersTheFleetsView() {
    List<String> fleet = nodes(trusted);
    System.out.printf("ClosedBusIT: the fleet's view %s; the strangers' %s and %s%n", fleet, nodes(strangers.get(0)),
        nodes(strangers.get(1)));
    assertThat(fleet).as("coordinator, agent and the trusted member").hasSize(3);
    for (var stranger : strangers) {
      assertThat(nodes(stranger)).as("a stranger's view").containsExactly(nodeId(stranger));
      assertThat(fleet).doesNotContain(nodeId(stranger));
    }
  }

  @Test
  @Order(1) // before the strangers subscribe
  void aMemberWithTheFleetsCertificateIsServedByTheAgentAndTheCoordinator() throws Exception {
    for (String address : agentAddresses()) {
      assertThat(reachedAMember(failure(ask(trusted, address, "not an order")))).as(address).isTrue();
    }
    String status = ask(trusted, CoordinatorStatus.address(COORDINATOR), "").map(Object::toString)
        .toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS);
    assertThat(status).contains(COORDINATOR);
  }

  @Test
  void aStrangerSubscribedToAnAgentsAddressesReceivesNothingSentThere() throws Exception {
    for (String address : agentAddresses()) {
      var received = new AtomicInteger();
      List<MessageConsumer<Object>> consumers = new ArrayList<>();
      for (var stranger : strangers) {
        var consumer = stranger.eventBus().consumer(address, m -> received.incrementAndGet());
        consumer.completion().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
        consumers.add(consumer);
      }
      try {
        List<Future<Object>> asked = new ArrayList<>();
        for (int i = 0; i < MESSAGES; i++) {
          asked.add(ask(trusted, address, "not an order " + i));
        }
        int byAgent = 0;
        for (var answer : asked) {
          byAgent += reachedAMember(failure(answer)) ? 1 : 0;
        }
        System.out.printf("ClosedBusIT: of %d messages to %s, %d reached the agent; the strangers received %d%n",
            MESSAGES, address, byAgent, received.get());
        assertThat(registrations(trusted, address)).as("subscriptions the fleet sees on %s", address).isEqualTo(1);
        assertThat(received).as("messages to %s the strangers received", address).hasValue(0);
        assertThat(byAgent).as("messages the agent answered (none went a stranger's way)").isEqualTo(MESSAGES);
      } finally {
        for (var consumer : consumers) {
          consumer.unregister().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
        }
      }
    }
  }

  @Test
  void whatAStrangerSendsReachesNoMember() throws Exception {
    for (var stranger : strangers) {
      assertThat(registrations(stranger, Addresses.landings(NODE))).as("the fleet's subscriptions a stranger reads")
          .isZero();
      List<String> addresses = new ArrayList<>(agentAddresses());
      addresses.add(CoordinatorStatus.address(COORDINATOR));
      for (String address : addresses) {
        var answer = ask(stranger, address, "from a stranger");
        assertThat(reachedAMember(failure(answer))).as("%s asked by a stranger", address).isFalse();
      }
    }
  }

  @Test
  void theAgentsApiAnswers401WithoutItsTokenAnd200WithTheOneInItsPrivateFile() throws Exception {
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(tokenFile))).isEqualTo("rw-------");
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(tokenFile.getParent()))).isEqualTo("rwx------");
    String api = agent.awaitValue("kvfleet-node-api", 5);
    String token = Files.readString(tokenFile).strip();
    var http = HttpClient.newHttpClient();
    var without = http.send(HttpRequest.newBuilder(URI.create(api + "/v1/node")).build(), HttpResponse.BodyHandlers.ofString());
    var wrong = http.send(HttpRequest.newBuilder(URI.create(api + "/v1/node")).header("Authorization", "Bearer x" + token)
        .build(), HttpResponse.BodyHandlers.ofString());
    var with = http.send(HttpRequest.newBuilder(URI.create(api + "/v1/node")).header("Authorization", "Bearer " + token)
        .build(), HttpResponse.BodyHandlers.ofString());
    var health = http.send(HttpRequest.newBuilder(URI.create(api + "/health")).build(), HttpResponse.BodyHandlers.ofString());

    assertThat(without.statusCode()).isEqualTo(401);
    assertThat(without.headers().firstValue("content-type")).hasValue("application/json");
    assertThat(without.body()).contains("\"error\"");
    assertThat(wrong.statusCode()).isEqualTo(401);
    assertThat(with.statusCode()).isEqualTo(200);
    assertThat(with.body()).contains("\"nodeId\":\"" + NODE + "\"");
    assertThat(health.statusCode()).isEqualTo(200);
  }

  @Test
  void eachProcessListensOnlyOnTheClusterHost() throws Exception {
    for (var process : List.of(coordinator, agent)) {
      var listening = Listeners.of(process.pid());
      var udp = Listeners.udpOf(process.pid());
      System.out.printf("ClosedBusIT: pid %d listens on TCP %s, UDP %s%n", process.pid(), listening, udp);
      // The membership's port, the EventBus's, and the HTTP API or the agent's data plane.
      assertThat(listening).as("what pid %d listens on", process.pid()).hasSizeGreaterThanOrEqualTo(3)
          .allSatisfy(l -> assertThat(l.address().getHostAddress()).as(l.toString()).isEqualTo("127.0.0.1"));
      assertThat(udp).as("UDP sockets of pid %d (JGroups' diagnostics would be one)", process.pid())
          .allSatisfy(l -> assertThat(l.address().getHostAddress()).as(l.toString()).isEqualTo("127.0.0.1"));
    }
  }

  private Vertx join(String name, int port, List<String> contacts, BusSecurity security) throws Exception {
    long start = System.nanoTime();
    var vertx = ClusteredVertx.join(name, "127.0.0.1", port, contacts, security)
        .toCompletionStage().toCompletableFuture().get(180, TimeUnit.SECONDS);
    System.out.printf("ClosedBusIT: a member with %s joined in %d ms%n", security,
        TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start));
    members.add(vertx);
    return vertx;
  }

  private static Future<Object> ask(Vertx from, String address, String body) {
    return from.eventBus().request(address, body, new DeliveryOptions().setSendTimeout(10_000)).map(m -> m.body());
  }

  /** The agent's addresses: its orders and the staged chunks it lands into its memory. */
  private static List<String> agentAddresses() {
    return List.of(Addresses.transfers(NODE), Addresses.landings(NODE));
  }

  /** Whether a member answered: a reply, or its handler's refusal (garbage is refused, not ignored). */
  private static boolean reachedAMember(ReplyFailure failure) {
    return failure == null || failure == ReplyFailure.RECIPIENT_FAILURE;
  }

  /** How the request ended: null for a reply, else the failure's kind. */
  private static ReplyFailure failure(Future<Object> answer) throws Exception {
    try {
      answer.toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS);
      return null;
    } catch (java.util.concurrent.ExecutionException e) {
      return e.getCause() instanceof ReplyException reply ? reply.failureType() : ReplyFailure.ERROR;
    }
  }

  private static List<String> nodes(Vertx vertx) {
    return ((VertxInternal) vertx).clusterManager().getNodes();
  }

  private static String nodeId(Vertx vertx) {
    return ((VertxInternal) vertx).clusterManager().getNodeId();
  }

  private static int registrations(Vertx vertx, String address) {
    Promise<List<RegistrationInfo>> found = Promise.promise();
    ((VertxInternal) vertx).clusterManager().getRegistrations(address, found);
    try {
      return found.future().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS).size();
    } catch (Exception e) {
      return 0; // not yet: asked again
    }
  }

  private static String[] with(List<String> cluster, String... command) {
    List<String> args = new ArrayList<>(List.of(command));
    args.addAll(cluster);
    return args.toArray(String[]::new);
  }

  private <T extends AutoCloseable> T own(T resource) {
    owned.add(resource);
    return resource;
  }
}
