package io.kvfleet.control.kafka;

import java.time.Duration;
import java.util.function.BooleanSupplier;

/** Waits for a condition with a generous bound; fails with a message instead of hanging. */
public final class Await {
  private Await() {}

  public static void until(String what, Duration limit, BooleanSupplier condition) throws InterruptedException {
    long end = System.nanoTime() + limit.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > end) {
        throw new AssertionError("timed out after " + limit + " waiting for " + what);
      }
      Thread.sleep(50);
    }
  }
}
