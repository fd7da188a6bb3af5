package io.kvfleet.control.coordinator;

import io.vertx.core.Context;
import io.vertx.core.Future;
import java.time.Duration;
import java.util.Collection;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Holds a rebalance of the coordinators' group until this member has stopped deciding for the
 * transfer partitions it loses and Kafka has answered everything it wrote to them. Kafka calls a
 * revocation on the consumer's polling thread and gives the partitions to another member only once
 * every member's revocation returned, so the new owner, reading to the end it finds on assignment,
 * reads every decision the old owner made: a transfer is never decided twice across owners. Vert.x's
 * own listener only posts the news to the event loop and returns, which let the rebalance finish
 * while decisions were still in the old owner's producer (RELIABILITY.md, "A rebalance made a
 * coordinator dispatch twice").
 *
 * <p>The hold is bounded by {@link #HOLD}: a member whose writes Kafka does not answer by then lets
 * the rebalance go on, says so, and the agent's de-duplication by transfer id keeps the order from
 * running twice. Partitions <em>lost</em> (the member's session ran out, someone else may own them
 * already) and a member closing (a static member's partitions move only when its session runs out)
 * are let go without the wait. A member paused or cut off past its session is not fenced by this
 * (only transactional writes would fence such a zombie). Under the eager protocol every member
 * gives up every partition at each rebalance, so the slowest member's unanswered writes hold the
 * whole group's decisions, up to the hold.
 */
final class RevocationFence implements ConsumerRebalanceListener {
  private static final Logger LOG = LoggerFactory.getLogger(RevocationFence.class);
  /** The longest a revocation holds the group: below Kafka's rebalance time-out (max.poll.interval.ms, 300 s). */
  static final Duration HOLD = Duration.ofSeconds(30);

  private final ConsumerRebalanceListener next;
  private final Context context;
  private final Function<Set<Integer>, Future<?>> letGo;

  /**
   * @param next the listener Vert.x gave Kafka, told after the hold
   * @param context the coordinator's event loop, where {@code letGo} runs
   * @param letGo stops deciding for the partitions given and completes once Kafka answered this member's writes to them
   */
  RevocationFence(ConsumerRebalanceListener next, Context context, Function<Set<Integer>, Future<?>> letGo) {
    this.next = next;
    this.context = context;
    this.letGo = letGo;
  }

  @Override
  public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
    hold(partitions);
    next.onPartitionsRevoked(partitions);
  }

  @Override
  public void onPartitionsLost(Collection<TopicPartition> partitions) {
    // Already someone else's, who may have read their end: waiting gains nothing (and a member that
    // lost them usually cannot reach Kafka, so it would wait the whole hold). Stop deciding at once.
    release(partitions);
    next.onPartitionsLost(partitions);
  }

  @Override
  public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
    next.onPartitionsAssigned(partitions);
  }

  /** Runs {@code letGo} on the event loop and waits, on Kafka's polling thread, until it completes or {@link #HOLD} passed. */
  private void hold(Collection<TopicPartition> partitions) {
    if (partitions.isEmpty()) {
      return;
    }
    Set<Integer> numbers = numbers(partitions);
    var released = new CompletableFuture<Void>();
    context.runOnContext(v -> {
      try {
        letGo.apply(numbers).onComplete(done -> released.complete(null));
      } catch (RuntimeException e) {
        released.completeExceptionally(e);
      }
    });
    try {
      released.get(HOLD.toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      LOG.warn("gave up transfer partitions {} with writes to them still unanswered after {} s: the next owner may"
          + " decide again what they hold (the agent runs an order once)", numbers, HOLD.toSeconds());
    } catch (ExecutionException e) {
      LOG.error("could not stop deciding for transfer partitions {} before giving them up", numbers, e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt(); // the consumer is closing
    }
  }

  /** Runs {@code letGo} on the event loop without waiting for it. */
  private void release(Collection<TopicPartition> partitions) {
    if (!partitions.isEmpty()) {
      var numbers = numbers(partitions);
      context.runOnContext(v -> letGo.apply(numbers));
    }
  }

  private static Set<Integer> numbers(Collection<TopicPartition> partitions) {
    return partitions.stream().map(TopicPartition::partition).collect(Collectors.toSet());
  }
}
