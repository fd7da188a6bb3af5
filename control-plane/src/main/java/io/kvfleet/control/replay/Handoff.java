package io.kvfleet.control.replay;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Hands items from the thread that reads them to one worker thread that takes them in the same
 * order, in batches (one queue operation per batch, not per item): reading Kafka and merging its
 * partitions is half of an export's CPU, checking and writing the lines the other half, so on two
 * cores they overlap. The worker alone touches what its consumer closes over.
 */
final class Handoff<T> implements AutoCloseable {
  private static final int BATCH = 1_024;
  private static final int QUEUED = 8; // batches in flight: a few MB of records at most

  private final BlockingQueue<List<T>> queue = new ArrayBlockingQueue<>(QUEUED);
  private final List<T> end = new ArrayList<>(0);
  private final Consumer<T> work;
  private final Thread worker;
  private volatile Throwable failure;
  private volatile boolean done;
  private List<T> batch = new ArrayList<>(BATCH);

  /** Starts the worker thread {@code name}, which hands every item to {@code work}. */
  Handoff(String name, Consumer<T> work) {
    this.work = work;
    this.worker = Thread.ofPlatform().name(name).daemon().start(this::loop);
  }

  /** Queues the next item; false once the worker has failed (stop reading, {@link #finish} says why). */
  boolean accept(T item) {
    batch.add(item);
    if (batch.size() == BATCH) {
      put(batch);
      batch = new ArrayList<>(BATCH);
    }
    return failure == null;
  }

  /** Hands over what is left and waits until the worker has taken it all; rethrows its failure. */
  void finish() {
    if (!batch.isEmpty()) {
      put(batch);
    }
    put(end);
    try {
      worker.join();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while waiting for " + worker.getName(), e);
    }
    done = true;
    rethrow();
  }

  private void put(List<T> next) {
    try {
      while (failure == null && !queue.offer(next, 100, TimeUnit.MILLISECONDS)) {
        // the worker is behind: wait for room, or for it to fail
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while handing records to " + worker.getName(), e);
    }
    rethrow();
  }

  private void loop() {
    try {
      for (List<T> next = queue.take(); next != end; next = queue.take()) {
        next.forEach(work);
      }
    } catch (InterruptedException e) {
      failure = e; // closed before finishing: nothing waits for the rest
    } catch (RuntimeException | Error e) {
      failure = e;
    }
  }

  private void rethrow() {
    Throwable t = failure;
    if (t instanceof RuntimeException r) {
      throw r;
    }
    if (t instanceof Error err) {
      throw err;
    }
    if (t != null) {
      throw new IllegalStateException(worker.getName() + " stopped", t);
    }
  }

  /** Stops the worker if {@link #finish} was not reached (the reading failed), and waits for it to stop. */
  @Override
  public void close() {
    if (!done) {
      worker.interrupt();
      try {
        worker.join(10_000); // what it writes to is closed next: let it stop first
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
