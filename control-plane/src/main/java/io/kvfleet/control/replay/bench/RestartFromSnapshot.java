package io.kvfleet.control.replay.bench;

import io.kvfleet.control.Json;
import io.kvfleet.control.coordinator.Coordinator;
import io.kvfleet.control.coordinator.FoldPosition;
import io.kvfleet.control.coordinator.SnapshotStore;
import io.kvfleet.control.kafka.EventPublisher;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * A coordinator folds the whole log from Kafka and writes a snapshot when it catches up; a second
 * one then starts from that snapshot. Measured: each one's time from deployment to caught up
 * (ready to decide), the snapshot's size, and whether both reached the same hash.
 */
final class RestartFromSnapshot {
  private RestartFromSnapshot() {}

  record Result(Duration coldCatchUp, long events, Duration restartToReady, Path snapshot, long snapshotBytes,
      String coldHash, String restartHash, String startedFrom, Duration freshJvmFromStart, Duration freshJvmFromMain) {}

  static Result measure(String bootstrapServers, Path snapshots) throws Exception {
    var store = new SnapshotStore(snapshots);
    var clock = Clock.systemUTC();
    var vertx = Vertx.vertx();
    try (var events = new EventPublisher(bootstrapServers, "bench-coordinator", 1, clock)) {
      var cold = new Coordinator(bootstrapServers, events, clock).withSnapshots(store, Duration.ofDays(1), 1);
      long start = System.nanoTime();
      String first = await(vertx.deployVerticle(cold));
      await(cold.caughtUp());
      var coldTime = Duration.ofNanos(System.nanoTime() - start);
      var coldPosition = position(vertx);
      long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(5);
      while (store.files("bench-coordinator").isEmpty() && System.nanoTime() < deadline) {
        Thread.sleep(100);
      }
      await(vertx.undeploy(first));
      Path file = store.files("bench-coordinator").getFirst();

      var warm = new Coordinator(bootstrapServers, events, clock).withSnapshots(store, Duration.ofDays(1), 1);
      start = System.nanoTime();
      await(vertx.deployVerticle(warm));
      await(warm.caughtUp());
      var warmTime = Duration.ofNanos(System.nanoTime() - start);
      var warmPosition = position(vertx);
      await(vertx.undeploy(vertx.deploymentIDs().iterator().next()));
      long[] fresh = inFreshJvm(bootstrapServers, snapshots);
      return new Result(coldTime, coldPosition.applied(), warmTime, file, Files.size(file), coldPosition.hash(),
          warmPosition.hash(), warmPosition.startedFrom(), Duration.ofMillis(fresh[0]), Duration.ofMillis(fresh[1]));
    } finally {
      await(vertx.close());
    }
  }

  /** Runs {@link ColdRestart} in a child JVM (same java, same class path); its ready times in ms. */
  private static long[] inFreshJvm(String bootstrapServers, Path snapshots) throws Exception {
    String javaBinary = ProcessHandle.current().info().command().orElse("java");
    var process = new ProcessBuilder(javaBinary, "--enable-native-access=ALL-UNNAMED", "-cp",
        System.getProperty("java.class.path"), ColdRestart.class.getName(), bootstrapServers, snapshots.toString(),
        "bench-coordinator").redirectErrorStream(true).start();
    String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!process.waitFor(5, TimeUnit.MINUTES) || process.exitValue() != 0) {
      throw new IllegalStateException("the fresh coordinator JVM failed: " + out);
    }
    var ready = out.lines().filter(l -> l.startsWith("ready-ms ")).findFirst()
        .orElseThrow(() -> new IllegalStateException("the fresh coordinator JVM did not report: " + out)).split(" ");
    return new long[] {Long.parseLong(ready[1]), Long.parseLong(ready[2])};
  }

  private static FoldPosition position(Vertx vertx) throws Exception {
    var reply = await(vertx.eventBus().<String>request(FoldPosition.address("bench-coordinator"), "",
        new io.vertx.core.eventbus.DeliveryOptions().setSendTimeout(60_000)));
    return Json.read(reply.body(), FoldPosition.class);
  }

  private static <T> T await(Future<T> future) throws Exception {
    return future.toCompletionStage().toCompletableFuture().get(10, TimeUnit.MINUTES);
  }
}
