package io.kvfleet.control.agent;

import io.kvfleet.control.dataplane.DataPlane;
import io.kvfleet.control.protocol.Addresses;
import io.kvfleet.control.protocol.LandingReply;
import io.kvfleet.control.protocol.Landings;
import io.kvfleet.control.protocol.StagedChunk;
import io.kvfleet.events.ReasonCodes;
import io.vertx.core.Vertx;
import io.vertx.core.WorkerExecutor;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.Message;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Both halves of staged chunks between agents: asks a destination's agent to land a chunk (for
 * this node's transfer worker), and lands the chunks other agents send here, one at a time on one
 * landing thread (one landing buffer), apart from the transfer worker.
 */
final class LandingDesk implements Landings, AutoCloseable {
  /** How long a source waits for a destination to land one staged chunk. */
  static final Duration LANDING_TIMEOUT = Duration.ofSeconds(30);

  private final Vertx vertx;
  private final DataPlane dataPlane;
  private final WorkerExecutor lander;

  LandingDesk(Vertx vertx, String nodeId, DataPlane dataPlane) {
    this.vertx = vertx;
    this.dataPlane = dataPlane;
    this.lander = vertx.createSharedWorkerExecutor("kvfleet-landing-" + nodeId, 1);
  }

  /** The destination's half of a staged chunk, on the landing thread; answers landed or why not. */
  void onLanding(Message<Object> message) {
    if (!(message.body() instanceof StagedChunk chunk)) {
      message.fail(400, "unreadable staged chunk: expected a " + StagedChunk.class.getSimpleName() + ", got "
          + (message.body() == null ? "nothing" : message.body().getClass().getSimpleName()));
      return;
    }
    lander.executeBlocking(() -> dataPlane.land(chunk), true)
        .onComplete(done -> message.reply(done.failed()
            ? new LandingReply(new Refused(ReasonCodes.TRANSPORT_ERROR, 0, String.valueOf(done.cause().getMessage())))
            : new LandingReply(done.result().orElse(null))));
  }

  /** Asks another agent to land a chunk and waits for it (on the transfer worker, never the event loop). */
  @Override
  public Optional<Refused> land(String node, StagedChunk chunk) {
    try {
      LandingReply answer = vertx.eventBus()
          .<LandingReply>request(Addresses.landings(node), chunk,
              new DeliveryOptions().setSendTimeout(LANDING_TIMEOUT.toMillis()))
          .toCompletionStage().toCompletableFuture()
          .get(LANDING_TIMEOUT.toMillis() + 1_000, TimeUnit.MILLISECONDS)
          .body();
      return answer.refusal();
    } catch (ExecutionException | TimeoutException e) {
      Throwable cause = e instanceof ExecutionException ? e.getCause() : e;
      return Optional.of(new Refused(ReasonCodes.TRANSPORT_ERROR, 0,
          node + "'s agent did not land the chunk: " + cause.getMessage()));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Optional.of(new Refused(ReasonCodes.TRANSPORT_ERROR, 0, "interrupted while " + node + " landed"));
    }
  }

  @Override
  public void close() {
    lander.close();
  }
}
