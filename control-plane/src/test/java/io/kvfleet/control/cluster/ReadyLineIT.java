package io.kvfleet.control.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.kvfleet.control.kafka.Await;
import io.kvfleet.control.kafka.EventPublisher;
import io.kvfleet.events.PeerJoined;
import io.kvfleet.events.Topics;
import io.kvfleet.events.codec.Decoded;
import io.kvfleet.events.codec.EnvelopeDeserializer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Pattern;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Test;

/**
 * A coordinator and a node agent started as OS processes, with their start-up steps side by side
 * (the cluster join, Kafka, the engine probe): the moment each prints its ready line it is ready.
 * The coordinator's API answers, the agent's local API answers with its epoch, and the log already
 * holds that epoch's join; the start-up marks name each phase {@code bench startup} prints.
 */
class ReadyLineIT {
  private static final Pattern API = Pattern.compile("dashboard and API at (http://[^/]+)/\\?access_token=(\\S+)");
  private static final HttpClient HTTP = HttpClient.newHttpClient();
  private static final Map<String, String> MARKS = Map.of("KVFLEET_STARTUP_MARKS", "1");

  @Test
  void aCoordinatorAndAnAgentThatPrintReadyAnswerAtOnceAndTheLogHoldsTheJoin() throws Exception {
    try (var kafka = KvfleetProcess.start("ready-kafka", "kafka")) {
      String bootstrap = kafka.awaitValue("kvfleet-kafka", 180);
      int port = FreePorts.clusterBase();
      var cluster = List.of("--bootstrap-servers", bootstrap, "--cluster-name",
          "it-ready-" + UUID.randomUUID().toString().substring(0, 8), "--cluster-port", Integer.toString(port),
          "--cluster-members", FreePorts.members(port));
      try (var coordinator = KvfleetProcess.start("ready-coordinator", MARKS, with(cluster, "coordinator"))) {
        coordinator.awaitValue("kvfleet-coordinator", 180);
        var api = API.matcher(coordinator.console());
        assertThat(api.find()).as("the coordinator printed its API before its ready line").isTrue();
        assertThat(get(api.group(1) + "/api/v1/peers", api.group(2)).statusCode()).isEqualTo(200);
        assertThat(coordinator.console()).contains("kvfleet-startup cluster-join ", "kvfleet-startup kafka ",
            "kvfleet-startup deployed ");
        // ready-0 last ran on a host whose clock was an hour ahead of this one: a join at this clock would be ignored.
        long ahead = System.currentTimeMillis() + 3_600_000;
        try (var before = new EventPublisher(bootstrap, "ready-0", ahead, Clock.systemUTC())) {
          before.publish(new PeerJoined("ready-0", ahead, "10.0.0.9", "AAECAwQFBgc=", List.of()), "ready-0").join();
        }
        try (var agent = KvfleetProcess.start("ready-node", MARKS, with(cluster, "node", "--id", "ready-0"))) {
          String nodeApi = agent.awaitValue("kvfleet-node-api", 180);
          String token = Files.readString(Path.of(agent.awaitValue("kvfleet-node-api-token-file", 5))).strip();
          var node = get(nodeApi + "/v1/node", token);
          assertThat(node.statusCode()).as(node.body()).isEqualTo(200);
          var joinedLine = Pattern.compile("node ready-0 epoch (\\d+) joined").matcher(agent.console());
          assertThat(joinedLine.find()).as("the agent printed its epoch before its ready line").isTrue();
          long epoch = Long.parseLong(joinedLine.group(1));
          assertThat(node.body()).containsPattern("\"epoch\"\\s*:\\s*" + epoch + "\\b");
          assertThat(epoch).as("joined above the epoch the log held").isGreaterThan(ahead);
          assertThat(agent.console()).contains("the log holds a join of ready-0 at epoch " + ahead);
          assertThat(joinsInTheLogNow(bootstrap)).contains(new Joined("ready-0", epoch));
          Await.until("the coordinator to take ready-0's join", Duration.ofSeconds(30), () -> bodyOf(api.group(1)
              + "/api/v1/peers", api.group(2)).matches("(?s).*\"epoch\"\\s*:\\s*" + epoch + "\\b.*"));
          assertThat(agent.console()).contains("kvfleet-startup cluster-join ", "kvfleet-startup kafka ",
              "kvfleet-startup engine-probe ", "kvfleet-startup kafka-readers ", "kvfleet-startup peer-joined ");
        }
      }
    }
  }

  @Test
  void anAgentWhoseKafkaDoesNotAnswerStopsWithKafkasReasonWhileItsJoinRunsBeside() throws Exception {
    int closed;
    try (var probe = new java.net.ServerSocket(0)) {
      closed = probe.getLocalPort(); // nothing listens here once the probe is closed
    }
    int port = FreePorts.clusterBase();
    try (var agent = KvfleetProcess.start("ready-no-kafka", "node", "--id", "ready-1", "--bootstrap-servers",
        "127.0.0.1:" + closed, "--cluster-name", "it-ready-" + UUID.randomUUID().toString().substring(0, 8),
        "--cluster-port", Integer.toString(port), "--cluster-members", FreePorts.members(port))) {
      assertThat(agent.exitCode(120)).as(agent.console()).isEqualTo(2);
      assertThat(agent.console()).contains("kvfleet node: Kafka at 127.0.0.1:" + closed).doesNotContain("kvfleet-node-api=");
    }
  }

  private record Joined(String node, long epoch) {}

  /** The joins in the node topic up to its end as it is now (what the fleet knows at this moment). */
  private static List<Joined> joinsInTheLogNow(String bootstrap) {
    try (var consumer = new KafkaConsumer<>(Map.<String, Object>of("bootstrap.servers", bootstrap),
        new StringDeserializer(), new EnvelopeDeserializer())) {
      var partitions = consumer.partitionsFor(Topics.NODES).stream()
          .map(p -> new TopicPartition(p.topic(), p.partition())).toList();
      consumer.assign(partitions);
      consumer.seekToBeginning(partitions);
      var ends = consumer.endOffsets(partitions);
      var joins = new java.util.ArrayList<Joined>();
      while (partitions.stream().anyMatch(p -> consumer.position(p) < ends.get(p))) {
        for (var r : consumer.poll(Duration.ofSeconds(1))) {
          if (r.value() instanceof Decoded.Event e && e.envelope().data() instanceof PeerJoined j) {
            joins.add(new Joined(j.nodeId(), j.epoch()));
          }
        }
      }
      return joins;
    }
  }

  /** The body {@code url} answers, or empty while it does not answer. */
  private static String bodyOf(String url, String token) {
    try {
      return get(url, token).body();
    } catch (Exception e) {
      return "";
    }
  }

  private static HttpResponse<String> get(String url, String token) throws Exception {
    return HTTP.send(HttpRequest.newBuilder(URI.create(url)).header("Authorization", "Bearer " + token)
        .timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.ofString());
  }

  private static String[] with(List<String> cluster, String... command) {
    var args = new java.util.ArrayList<>(List.of(command));
    args.addAll(cluster);
    return args.toArray(String[]::new);
  }
}
