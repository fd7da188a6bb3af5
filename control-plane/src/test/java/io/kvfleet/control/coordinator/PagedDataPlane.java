package io.kvfleet.control.coordinator;

import io.kvfleet.control.dataplane.Fence;
import io.kvfleet.control.protocol.Landings;
import io.kvfleet.control.protocol.TransferOrder;
import io.kvfleet.events.FleetEvent;
import io.kvfleet.events.TransferFailed;
import io.kvfleet.events.TransferRequested;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.function.Supplier;

/**
 * Failure injection: a jvm data plane that holds each transfer's second page until its fence says
 * the fleet ended the transfer (at most 30 s), as a long transfer would still be running when its
 * peer is declared lost. {@link #secondPage} opens once a transfer reached it.
 */
final class PagedDataPlane extends ForwardingDataPlane {
  final CountDownLatch secondPage = new CountDownLatch(1);

  @Override
  public FleetEvent transfer(TransferOrder order, Landings landings, Fence fence) {
    return real.transfer(order, landings, new Fence() {
      private int pages;

      @Override
      public boolean mayGoOn() {
        return fence.mayGoOn();
      }

      @Override
      public boolean landedInTime(long deadlineMillis) {
        return fence.landedInTime(deadlineMillis);
      }

      @Override
      public Optional<String> endedByFleet() {
        return fence.endedByFleet();
      }

      @Override
      public Optional<TransferFailed> before(TransferRequested request, Supplier<String> page, long landed) {
        if (++pages == 2) {
          secondPage.countDown();
          long until = System.nanoTime() + 30_000_000_000L;
          while (fence.endedByFleet().isEmpty() && System.nanoTime() < until) {
            Thread.onSpinWait();
            try {
              Thread.sleep(20);
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
              break;
            }
          }
        }
        return Fence.super.before(request, page, landed);
      }
    });
  }
}
