package io.kvfleet.control.coordinator;

import io.kvfleet.control.protocol.TransferOrder;
import io.kvfleet.events.FleetEvent;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/** Failure injection: a data plane whose transfers hang, as a transfer to a dead peer would. */
final class StuckDataPlane extends ForwardingDataPlane {
  private final CountDownLatch release = new CountDownLatch(1);
  /** The destination whose transfers hang; null: every transfer hangs. */
  private final String deadDestination;

  StuckDataPlane() {
    this(null);
  }

  /** A data plane whose transfers to {@code deadDestination} hang, as they would to a dead peer; others run. */
  StuckDataPlane(String deadDestination) {
    this.deadDestination = deadDestination;
  }

  @Override
  public FleetEvent transfer(TransferOrder order) {
    if (deadDestination != null && !deadDestination.equals(order.request().destinationNode())) {
      return real.transfer(order);
    }
    try {
      release.await(60, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    return real.transfer(order);
  }

  /** Lets the stuck transfers go on, as a slow peer finally answering would. */
  void release() {
    release.countDown();
  }

  @Override
  public void close() {
    release.countDown();
    super.close();
  }
}
