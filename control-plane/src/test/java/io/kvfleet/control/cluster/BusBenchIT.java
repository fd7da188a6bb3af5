package io.kvfleet.control.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.eventbus.ReplyFailure;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The bus bench (BENCHMARKS.md, "The cluster membership"): for Hazelcast as kvfleet ran it, and
 * Infinispan in the clear and closed, in one run: the first member's {@code buildClustered} in
 * this JVM, then a second member as a process of its own, timed from its start to its ready line
 * and by its own {@code buildClustered}, then sequential request/reply from here to it. Runs with
 * {@code -Dkvfleet.bench.bus=true} ({@code -Dkvfleet.bench.bus.rounds}, {@code .requests}).
 */
class BusBenchIT {
  private static final int ROUNDS = Integer.getInteger("kvfleet.bench.bus.rounds", 3);
  private static final int REQUESTS = Integer.getInteger("kvfleet.bench.bus.requests", 2000);
  private static final int WARM_UP = 500;

  /** One round of one shape, in milliseconds and microseconds. */
  record Round(BusShape shape, long firstJoinMs, long processReadyMs, long peerJoinMs, long p50Micros, long p99Micros) {}

  @Test
  void measuresJoinAndRequestLatencyForEachShape() throws Exception {
    assumeTrue(Boolean.getBoolean("kvfleet.bench.bus"), "the bus bench runs with -Dkvfleet.bench.bus=true");
    Path work = Files.createTempDirectory("kvfleet-bus-bench");
    var fleet = FleetCertificates.newFleet(work, "fleet");
    Path parentTls = fleet.member("bench");
    Path peerTls = fleet.member("peer");
    List<Round> rounds = new ArrayList<>();
    for (int round = 1; round <= ROUNDS; round++) {
      for (var shape : BusShape.values()) {
        var measured = round(shape, shape == BusShape.INFINISPAN_CLOSED ? parentTls : null, peerTls);
        System.out.println("BusBenchIT: " + measured);
        rounds.add(measured);
      }
    }
    String table = BusBenchReport.format(rounds);
    System.out.println(table);
    Files.writeString(Path.of("target", "bus-bench.md"), table);
    assertThat(rounds).hasSize(ROUNDS * BusShape.values().length)
        .allSatisfy(r -> assertThat(r.p99Micros()).as(r.toString()).isPositive());
  }

  private static Round round(BusShape shape, Path tls, Path peerTls) throws Exception {
    int port = FreePorts.clusterBase();
    String members = FreePorts.members(port);
    String name = "bus-bench-" + UUID.randomUUID().toString().substring(0, 8);
    long start = System.nanoTime();
    Vertx first = shape.join(name, port, List.of(members), tls).toCompletionStage().toCompletableFuture()
        .get(180, TimeUnit.SECONDS);
    long firstJoin = millisSince(start);
    try {
      List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
      command.addAll(jvmFlags());
      command.addAll(List.of("-Dkvfleet.log.file=target/bus-bench-peer.log", "-cp", System.getProperty("java.class.path"),
          BusPeer.class.getName(), shape.name(), name, Integer.toString(port), members));
      if (tls != null) {
        command.add(peerTls.toString());
      }
      long launched = System.nanoTime();
      var peer = new ProcessBuilder(command).redirectErrorStream(true).start();
      try {
        long peerJoin = awaitReady(peer);
        long ready = millisSince(launched);
        long[] micros = requests(first);
        return new Round(shape, firstJoin, ready, peerJoin, micros[micros.length / 2], micros[micros.length * 99 / 100]);
      } finally {
        peer.getOutputStream().close();
        if (!peer.waitFor(30, TimeUnit.SECONDS)) {
          peer.destroyForcibly();
        }
      }
    } finally {
      first.close().toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS);
    }
  }

  /** The peer's own join time, once it printed its ready line. */
  private static long awaitReady(Process peer) throws Exception {
    var lines = new BufferedReader(new InputStreamReader(peer.getInputStream(), StandardCharsets.UTF_8));
    long join = -1;
    for (String line = lines.readLine(); line != null; line = lines.readLine()) {
      if (line.startsWith("kvfleet-bus-peer-join-ms=")) {
        join = Long.parseLong(line.substring(line.indexOf('=') + 1));
      } else if (line.equals("kvfleet-bus-peer=ready")) {
        Thread.ofPlatform().daemon().start(() -> lines.lines().forEach(l -> { })); // keep its pipe drained
        return join;
      }
    }
    throw new IllegalStateException("the bus peer exited before its ready line");
  }

  /** Sequential request/reply latencies in microseconds, sorted, after a warm-up. */
  private static long[] requests(Vertx from) throws Exception {
    awaitRoute(from);
    var options = new DeliveryOptions().setSendTimeout(30_000);
    long[] micros = new long[REQUESTS];
    for (int i = -WARM_UP; i < REQUESTS; i++) {
      long sent = System.nanoTime();
      from.eventBus().request(BusPeer.ECHO, "ping " + i, options).toCompletionStage().toCompletableFuture()
          .get(60, TimeUnit.SECONDS);
      if (i >= 0) {
        micros[i] = TimeUnit.NANOSECONDS.toMicros(System.nanoTime() - sent);
      }
    }
    Arrays.sort(micros);
    return micros;
  }

  /** Until this member routes to the peer's consumer: a subscription reaches the other members' selectors a little later. */
  private static void awaitRoute(Vertx from) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (true) {
      try {
        from.eventBus().request(BusPeer.ECHO, "route?").toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
        return;
      } catch (java.util.concurrent.ExecutionException e) {
        if (!(e.getCause() instanceof ReplyException r) || r.failureType() != ReplyFailure.NO_HANDLERS
            || System.nanoTime() > deadline) {
          throw e;
        }
        Thread.sleep(100);
      }
    }
  }

  /** This JVM's flags that the peer needs too (native access, opens for Hazelcast and Netty). */
  private static List<String> jvmFlags() {
    return ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
        .filter(a -> a.startsWith("--add-opens") || a.startsWith("--add-exports") || a.startsWith("--enable-native-access")
            || a.startsWith("--sun-misc-unsafe-memory-access") || a.startsWith("--add-modules"))
        .toList();
  }

  private static long millisSince(long nanos) {
    return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - nanos);
  }
}
