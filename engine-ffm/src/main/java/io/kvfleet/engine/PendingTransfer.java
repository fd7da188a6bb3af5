package io.kvfleet.engine;

import io.kvfleet.engine.spi.BackendTransfer;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * A posted batch: poll it, or wait for it. Thread-safe; any thread may await it. Once it ends, its
 * local registrations may be deregistered again.
 */
public final class PendingTransfer {
  private final Peer peer;
  private final BackendTransfer transfer;
  private final List<Registration> holds;
  private final long defaultDeadlineNanos;
  private TransferResult result;

  PendingTransfer(Peer peer, BackendTransfer transfer, List<Registration> holds,
      Duration deadline) {
    this.peer = peer;
    this.transfer = transfer;
    this.holds = holds;
    this.defaultDeadlineNanos = System.nanoTime() + deadline.toNanos();
  }

  static PendingTransfer done(Peer peer, TransferResult result) {
    PendingTransfer pending = new PendingTransfer(peer, null, List.of(), Duration.ofSeconds(1));
    pending.result = result;
    return pending;
  }

  /** Progresses once; the result when the batch has ended. */
  public synchronized Optional<TransferResult> poll() {
    if (result == null) {
      transfer.poll().ifPresent(this::end);
    }
    return Optional.ofNullable(result);
  }

  /** Whether the batch has ended (without progressing it). */
  public synchronized boolean isDone() {
    return result != null;
  }

  /** Waits until the batch ends or the engine's transfer deadline (from the post) passes. */
  public TransferResult await() {
    return awaitUntil(defaultDeadlineNanos);
  }

  /** Waits until the batch ends or {@code timeout} passes. */
  public TransferResult await(Duration timeout) {
    return awaitUntil(System.nanoTime() + timeout.toNanos());
  }

  private TransferResult awaitUntil(long deadlineNanos) {
    int idle = 0;
    while (true) {
      Optional<TransferResult> polled = poll();
      if (polled.isPresent()) {
        return polled.get();
      }
      if (System.nanoTime() - deadlineNanos > 0) {
        return expire();
      }
      if (++idle % 1024 == 0) {
        Thread.yield();
      } else {
        Thread.onSpinWait();
      }
    }
  }

  /**
   * Gives the batch up without progressing it again (a caller that may no longer move bytes, e.g. an
   * agent whose lease lapsed): cancelled, the peer marked broken, failed {@code LEASE_UNPROVEN}; the
   * result if it had ended already.
   */
  public synchronized TransferResult abandon(String why) {
    if (result == null) {
      transfer.abandon();
      peer.markBroken(why);
      end(TransferResult.Failed.of(TransferFailure.LEASE_UNPROVEN, why, -1, peer.path()));
    }
    return result;
  }

  private synchronized TransferResult expire() {
    if (result == null) {
      transfer.abandon();
      peer.markBroken("a batch passed its deadline");
      end(TransferResult.Failed.of(TransferFailure.DEADLINE_PASSED,
          "the batch did not complete before its deadline; the peer is marked broken", -1,
          peer.path()));
    }
    return result;
  }

  private void end(TransferResult ended) {
    result = ended;
    if (ended instanceof TransferResult.Failed failed && failed.reason() == TransferFailure.PEER_LOST) {
      peer.markBroken(failed.detail());
    }
    holds.forEach(Registration::release);
  }
}
