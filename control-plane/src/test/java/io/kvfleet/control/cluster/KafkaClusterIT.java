package io.kvfleet.control.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.kvfleet.events.Topics;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Three {@code kvfleet kafka} brokers as separate OS processes form one KRaft cluster on loopback:
 * the fleet topics get three copies and {@code min.insync.replicas=2}, and killing the active
 * controller with SIGKILL loses no acknowledged record; the killed broker rejoins from its folder.
 */
class KafkaClusterIT {
  private final List<KvfleetProcess> brokers = new ArrayList<>(List.of());
  private final List<Path> folders = new ArrayList<>();
  private String voters;
  private int[] clientPorts;

  @AfterEach
  void stopBrokers() throws Exception {
    for (var broker : brokers) {
      if (broker != null) {
        broker.close();
      }
    }
  }

  @Test
  void threeBrokersKeepEveryAcknowledgedRecordWhenTheControllerIsKilled() throws Exception {
    startCluster();
    String bootstrap = "127.0.0.1:" + clientPorts[0] + ",127.0.0.1:" + clientPorts[1] + ",127.0.0.1:" + clientPorts[2];
    try (var admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
      for (TopicDescription topic : admin.describeTopics(Topics.ALL).allTopicNames().get(30, TimeUnit.SECONDS).values()) {
        topic.partitions().forEach(p -> assertThat(p.replicas()).as(topic.name() + "-" + p.partition()).hasSize(3));
      }
      var config = admin.describeConfigs(List.of(new ConfigResource(ConfigResource.Type.TOPIC, Topics.TRANSFERS)))
          .all().get(30, TimeUnit.SECONDS).values().iterator().next();
      assertThat(config.get("min.insync.replicas").value()).isEqualTo("2");

      int controller = admin.describeMetadataQuorum().quorumInfo().get(30, TimeUnit.SECONDS).leaderId();
      long started = System.nanoTime();
      brokers.get(controller - 1).kill();
      Set<String> sent = produce(bootstrap, 200);
      System.out.printf("KafkaClusterIT: killed controller node %d; 200 records acknowledged by the other two in %d ms%n",
          controller, TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started));

      brokers.set(controller - 1, startBroker(controller));
      awaitFullIsr(admin, Duration.ofSeconds(120));
      assertThat(consumeAll(bootstrap)).containsExactlyInAnyOrderElementsOf(sent);
    }
  }

  private void startCluster() throws Exception {
    int[] ports = FreePorts.distinct(6);
    int[] controllerPorts = {ports[0], ports[1], ports[2]};
    clientPorts = new int[] {ports[3], ports[4], ports[5]};
    voters = "1@127.0.0.1:" + controllerPorts[0] + ",2@127.0.0.1:" + controllerPorts[1] + ",3@127.0.0.1:" + controllerPorts[2];
    for (int id = 1; id <= 3; id++) {
      folders.add(Files.createTempDirectory("kvfleet-cluster-b" + id + "-"));
      brokers.add(startBroker(id));
    }
    for (var broker : brokers) {
      broker.awaitValue("kvfleet-kafka", 180);
    }
  }

  private KvfleetProcess startBroker(int id) throws IOException {
    return KvfleetProcess.start("kafka-cluster-b" + id, "kafka", "--node-id", Integer.toString(id),
        "--controller-quorum", voters, "--port", Integer.toString(clientPorts[id - 1]),
        "--data-dir", folders.get(id - 1).toString());
  }

  private static Set<String> produce(String bootstrap, int count) throws Exception {
    var sent = new HashSet<String>();
    try (var producer = new KafkaProducer<>(Map.<String, Object>of(
        ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap, ProducerConfig.ACKS_CONFIG, "all",
        ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true, ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 120_000),
        new StringSerializer(), new StringSerializer())) {
      for (int i = 0; i < count; i++) {
        String value = "record-" + i;
        producer.send(new ProducerRecord<>(Topics.TRANSFERS, "node-" + (i % 5), value)).get(120, TimeUnit.SECONDS);
        sent.add(value);
      }
    }
    return sent;
  }

  private static List<String> consumeAll(String bootstrap) {
    var values = new ArrayList<String>();
    try (var consumer = new KafkaConsumer<>(Map.<String, Object>of(
        ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap, ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
        ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false), new StringDeserializer(), new StringDeserializer())) {
      var partitions = consumer.partitionsFor(Topics.TRANSFERS, Duration.ofSeconds(30)).stream()
          .map(p -> new org.apache.kafka.common.TopicPartition(p.topic(), p.partition())).toList();
      consumer.assign(partitions);
      consumer.seekToBeginning(partitions);
      var ends = consumer.endOffsets(partitions, Duration.ofSeconds(30));
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      while (partitions.stream().anyMatch(p -> consumer.position(p) < ends.get(p)) && System.nanoTime() < deadline) {
        consumer.poll(Duration.ofMillis(500)).forEach(r -> values.add(r.value()));
      }
    }
    return values;
  }

  private static void awaitFullIsr(Admin admin, Duration timeout) throws Exception {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (true) {
      var topics = admin.describeTopics(Topics.ALL).allTopicNames().get(30, TimeUnit.SECONDS).values();
      boolean full = topics.stream().flatMap(t -> t.partitions().stream()).allMatch(p -> p.isr().size() == 3);
      if (full) {
        return;
      }
      assertThat(System.nanoTime()).as("the restarted broker back in every ISR within " + timeout).isLessThan(deadline);
      Thread.sleep(500);
    }
  }
}
