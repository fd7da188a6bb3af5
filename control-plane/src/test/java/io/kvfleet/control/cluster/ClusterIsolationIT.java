package io.kvfleet.control.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.Vertx;
import io.vertx.core.internal.VertxInternal;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Two fleets at once on one machine, each of two clustered Vert.x instances, contacting the very
 * same ports: each forms its own cluster by its name, and an order sent in one never reaches the
 * other's agent of the same node id.
 */
class ClusterIsolationIT {
  private static final String AGENT = "kvfleet.it.agent.prefill-0";
  private static final List<Vertx> ALL = new ArrayList<>();
  private static List<Vertx> fleetA;
  private static List<Vertx> fleetB;

  @BeforeAll
  static void startTwoFleets() throws Exception {
    int base = FreePorts.clusterBase();
    List<String> members = List.of(FreePorts.members(base));
    String suffix = UUID.randomUUID().toString().substring(0, 8);
    long start = System.nanoTime();
    // One after another. (Four binding the same ten ports at the same instant once ran out of them:
    // JGroups walked the range on one socket; FleetTcp tries a socket per port, FleetTcpIT.)
    for (String name : List.of("it-a-" + suffix, "it-a-" + suffix, "it-b-" + suffix, "it-b-" + suffix)) {
      ALL.add(ClusteredVertx.join(name, "127.0.0.1", base, members).toCompletionStage().toCompletableFuture()
          .get(180, TimeUnit.SECONDS));
    }
    System.out.printf("ClusterIsolationIT: four members joined two clusters in %d ms%n",
        TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start));
    fleetA = ALL.subList(0, 2);
    fleetB = ALL.subList(2, 4);
  }

  @AfterAll
  static void stop() throws Exception {
    for (var vertx : ALL) {
      vertx.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    }
  }

  @Test
  void eachFleetSeesOnlyItsOwnMembers() {
    var a = nodes(fleetA.get(0));
    var b = nodes(fleetB.get(0));

    assertThat(a).hasSize(2).isEqualTo(nodes(fleetA.get(1)));
    assertThat(b).hasSize(2).isEqualTo(nodes(fleetB.get(1)));
    assertThat(a).doesNotContainAnyElementsOf(b);
  }

  @Test
  void anOrderForANodeIdBothFleetsHaveReachesOnlyItsOwnFleetsAgent() throws Exception {
    fleetA.get(1).eventBus().<String>consumer(AGENT, m -> m.reply("fleet A")).completion()
        .toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    fleetB.get(1).eventBus().<String>consumer(AGENT, m -> m.reply("fleet B")).completion()
        .toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);

    for (int i = 0; i < 10; i++) {
      assertThat(ask(fleetA.get(0))).isEqualTo("fleet A");
      assertThat(ask(fleetB.get(0))).isEqualTo("fleet B");
    }
  }

  private static String ask(Vertx vertx) throws Exception {
    return vertx.eventBus().<String>request(AGENT, "order").map(m -> m.body())
        .toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
  }

  private static List<String> nodes(Vertx vertx) {
    return ((VertxInternal) vertx).clusterManager().getNodes().stream().sorted().toList();
  }
}
