package io.kvfleet.control.coordinator;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The hold on a revocation: Kafka's polling thread tells Vert.x's listener of a revocation only
 * once the coordinator, on its event loop, let the partitions go and its writes to them were
 * answered; partitions lost are let go at once.
 */
class RevocationFenceTest {
  private static final List<TopicPartition> PARTITIONS = List.of(new TopicPartition("kvfleet.transfers", 2));

  private final Vertx vertx = Vertx.vertx();
  private final List<String> said = new CopyOnWriteArrayList<>();

  @AfterEach
  void close() {
    vertx.close().await();
  }

  @Test
  void aRevocationReachesVertxOnlyOnceTheWritesToThePartitionWereAnswered() {
    Promise<Void> answered = Promise.promise();
    var fence = new RevocationFence(next(), vertx.getOrCreateContext(), lost -> {
      said.add("let go " + lost + " on an event loop: " + Vertx.currentContext().isEventLoopContext());
      vertx.setTimer(300, t -> {
        said.add("answered");
        answered.complete();
      });
      return answered.future();
    });

    fence.onPartitionsRevoked(PARTITIONS);

    assertThat(said).containsExactly("let go [2] on an event loop: true", "answered", "revoked [2]");
  }

  @Test
  void partitionsLostAreLetGoWithoutWaitingForWrites() {
    var fence = new RevocationFence(next(), vertx.getOrCreateContext(), lost -> {
      said.add("let go " + lost);
      return Promise.<Void>promise().future(); // never answered: Kafka is out of reach
    });

    fence.onPartitionsLost(PARTITIONS);

    assertThat(said).contains("lost [2]");
  }

  @Test
  void anEmptyRevocationHoldsNothing() {
    var fence = new RevocationFence(next(), vertx.getOrCreateContext(), lost -> {
      said.add("let go " + lost);
      return Future.succeededFuture();
    });

    fence.onPartitionsRevoked(List.of());

    assertThat(said).containsExactly("revoked []");
  }

  private ConsumerRebalanceListener next() {
    return new ConsumerRebalanceListener() {
      @Override
      public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
        said.add("revoked " + numbers(partitions));
      }

      @Override
      public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
        said.add("assigned " + numbers(partitions));
      }

      @Override
      public void onPartitionsLost(Collection<TopicPartition> partitions) {
        said.add("lost " + numbers(partitions));
      }
    };
  }

  private static Set<Integer> numbers(Collection<TopicPartition> partitions) {
    return partitions.stream().map(TopicPartition::partition).collect(java.util.stream.Collectors.toSet());
  }
}
