package io.kvfleet.control.replay.bench;

import io.kvfleet.control.coordinator.Coordinator;
import io.kvfleet.control.coordinator.SnapshotStore;
import io.kvfleet.control.kafka.EventPublisher;
import io.vertx.core.Vertx;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * A coordinator restart in a fresh JVM, as after a crash: the JVM starts, the coordinator loads its
 * newest snapshot, reads the log's tail and catches up. Prints {@code ready-ms <from JVM start>
 * <from main>}, then exits. {@link RestartFromSnapshot} runs it as a child process.
 */
public final class ColdRestart {
  private ColdRestart() {}

  /** Arguments: bootstrap servers, snapshot folder, coordinator id. */
  public static void main(String[] args) throws Exception {
    long mainStarted = System.currentTimeMillis();
    var clock = Clock.systemUTC();
    var vertx = Vertx.vertx();
    try (var events = new EventPublisher(args[0], args[2], 99, clock)) {
      var coordinator = new Coordinator(args[0], events, clock)
          .withSnapshots(new SnapshotStore(Path.of(args[1])), Duration.ofDays(1), Long.MAX_VALUE);
      vertx.deployVerticle(coordinator).toCompletionStage().toCompletableFuture().get(5, TimeUnit.MINUTES);
      coordinator.caughtUp().toCompletionStage().toCompletableFuture().get(5, TimeUnit.MINUTES);
      long now = System.currentTimeMillis();
      System.out.println("ready-ms " + (now - ManagementFactory.getRuntimeMXBean().getStartTime()) + " "
          + (now - mainStarted));
    } finally {
      vertx.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    }
    System.exit(0);
  }
}
