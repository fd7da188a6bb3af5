package io.kvfleet.control.chaos;

import io.kvfleet.control.kafka.EventPublisher;
import io.kvfleet.events.ByteRange;
import io.kvfleet.events.TransferOp;
import io.kvfleet.events.TransferRequested;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.ToLongFunction;

/**
 * The router under test: one thread publishes a page transfer from {@link ChaosFleet#SOURCE} to
 * {@link ChaosFleet#DESTINATION} every {@code 1/rate} s, naming the nodes' current epochs, and
 * remembers which requests Kafka acknowledged (those must all be in the log and end exactly once).
 */
final class Load implements AutoCloseable {
  private final EventPublisher router;
  private final ToLongFunction<String> epochs;
  private final ChaosConfig config;
  private final Set<String> acknowledged = ConcurrentHashMap.newKeySet();
  private final AtomicLong refused = new AtomicLong();
  private final String prefix;
  private volatile boolean running = true;
  private final Thread thread;

  Load(String bootstrap, ChaosConfig config, String prefix, ToLongFunction<String> epochs) {
    this.router = new EventPublisher(bootstrap, "router-" + prefix, System.currentTimeMillis(), Clock.systemUTC());
    this.config = config;
    this.prefix = prefix;
    this.epochs = epochs;
    this.thread = Thread.ofPlatform().daemon().name("chaos-load-" + prefix).start(this::run);
  }

  private void run() {
    long period = 1_000_000_000L / config.rate();
    long next = System.nanoTime();
    for (long n = 0; running; n++) {
      publish(prefix + "-" + n);
      next += period;
      long wait = next - System.nanoTime();
      if (wait > 0) {
        Child.sleep(Duration.ofNanos(wait));
      }
    }
  }

  private void publish(String id) {
    long page = ThreadLocalRandom.current().nextInt(ChaosFleet.PAGES) * ChaosFleet.PAGE;
    var request = new TransferRequested(id, ChaosFleet.SOURCE, epochs.applyAsLong(ChaosFleet.SOURCE), "kv_data-0",
        ChaosFleet.DESTINATION, epochs.applyAsLong(ChaosFleet.DESTINATION), "kv_data-0", TransferOp.WRITE,
        List.of(new ByteRange(page, page, ChaosFleet.PAGE)),
        System.currentTimeMillis() + config.deadline().toMillis(), false);
    router.publish(request, id).whenComplete((envelope, error) -> {
      if (error == null) {
        acknowledged.add(id);
      } else {
        refused.incrementAndGet(); // the router's buffer was full while Kafka was away: never sent
      }
    });
  }

  /** The ids Kafka acknowledged. */
  Set<String> acknowledged() {
    return Set.copyOf(acknowledged);
  }

  /** Requests that were not acknowledged: the router's own buffer refused them while Kafka was away. */
  long refused() {
    return refused.get();
  }

  /** Stops sending and waits (up to a minute) for what is in flight to be acknowledged. */
  @Override
  public void close() {
    running = false;
    try {
      thread.join(Duration.ofSeconds(5));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    long end = System.nanoTime() + Duration.ofMinutes(1).toNanos();
    while (router.waiting() > 0 && System.nanoTime() < end) {
      Child.sleep(Duration.ofMillis(100));
    }
    router.close();
  }
}
