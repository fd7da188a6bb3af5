package io.kvfleet.control.replay;

import io.kvfleet.events.codec.EventCodec;
import io.kvfleet.events.replay.LogRecord;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * Decoding is what a replay spends most of its time on (JSON to records), and it needs no order:
 * the reading thread cuts records into batches, a pool decodes them, and one fold thread takes
 * the batches back in the order they were read and hands each record to the sink. The sink runs
 * on that one thread only; {@link #finish} returns after it has seen the last record.
 */
final class DecodePipeline implements AutoCloseable {
  private static final int BATCH = 512;
  /** A batch closes at this many bytes of records too, whatever its count. */
  private static final long BATCH_BYTES = 4L << 20;
  /**
   * Bytes of records handed over and not folded yet, beyond which the reading thread waits: an export's lines may
   * each be up to {@code Lines.MAX_LINE}, and a count of batches alone let a dozen such records fill the heap.
   */
  static final long MAX_IN_FLIGHT = 256L << 20;

  private final EventCodec codec = new EventCodec();
  private final ExecutorService pool;
  private final BlockingQueue<Batch> batches;
  private final Batch end = new Batch(CompletableFuture.completedFuture(List.of()), 0);
  /** Bytes that may still be handed over: a batch takes its size (at most all of it) and the fold gives it back. */
  private final java.util.concurrent.Semaphore room = new java.util.concurrent.Semaphore((int) MAX_IN_FLIGHT);
  private final Thread fold;
  private final Predicate<LogRecord> sink;
  private volatile boolean stopped;
  private volatile Throwable failure;
  private List<StoredRecord> batch = new ArrayList<>(BATCH);
  private long batchBytes;

  /** Records being decoded, and the room they take while they wait for the fold. */
  private record Batch(CompletableFuture<List<LogRecord>> records, int room) {}

  DecodePipeline(int threads, Predicate<LogRecord> sink) {
    this.sink = sink;
    this.pool = Executors.newFixedThreadPool(threads, Thread.ofPlatform().name("kvfleet-decode-", 0).daemon().factory());
    this.batches = new ArrayBlockingQueue<>(threads * 4);
    this.fold = Thread.ofPlatform().name("kvfleet-fold").daemon().start(this::foldLoop);
  }

  /** Adds the next record in replay order; false once the sink has stopped the replay. */
  boolean accept(StoredRecord record) {
    batch.add(record);
    batchBytes += record.bytes();
    if (batch.size() == BATCH || batchBytes >= BATCH_BYTES) {
      submit();
    }
    return !stopped;
  }

  /** Hands over what is left and waits for the fold thread to see it all. */
  void finish() {
    if (!batch.isEmpty()) {
      submit();
    }
    put(end);
    try {
      fold.join();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while the replay folded", e);
    }
    if (failure != null) {
      throw failure instanceof RuntimeException r ? r : new IllegalStateException(failure);
    }
  }

  private void submit() {
    var records = batch;
    long bytes = batchBytes;
    batch = new ArrayList<>(BATCH);
    batchBytes = 0;
    int taken = (int) Math.min(bytes, MAX_IN_FLIGHT); // a batch larger than the bound waits for all of it
    try {
      while (!room.tryAcquire(taken, 100, TimeUnit.MILLISECONDS)) {
        if (stopped) { // the fold thread is gone: nothing will give room back
          return;
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      stopped = true;
      return;
    }
    put(new Batch(CompletableFuture.supplyAsync(() -> records.stream().map(r -> r.decode(codec)).toList(), pool),
        taken));
  }

  private void put(Batch next) {
    try {
      while (!stopped && !batches.offer(next, 100, TimeUnit.MILLISECONDS)) {
        // the fold thread is behind: wait for room
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      stopped = true;
    }
  }

  private void foldLoop() {
    try {
      while (true) {
        var next = batches.take();
        if (next == end) {
          return;
        }
        for (LogRecord r : next.records().get()) {
          if (!sink.test(r)) {
            stopped = true;
            return;
          }
        }
        room.release(next.room());
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (ExecutionException | RuntimeException e) {
      failure = e instanceof ExecutionException ? e.getCause() : e;
    } finally {
      stopped = true;
    }
  }

  @Override
  public void close() {
    stopped = true;
    pool.shutdownNow();
  }
}
