package io.kvfleet.control.cli;

import io.kvfleet.control.StartupMarks;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * The independent steps of a process's start-up (the cluster join, Kafka's checks, the engine
 * probe), each on its own thread so the slowest alone bounds the start; each is marked when done
 * ({@link StartupMarks#span}). A start that fails {@link #abandon}s the others: what they made is
 * closed, now or when they finish, so a failed start in a shared JVM leaves nothing open.
 */
final class StartupSteps {
  private final List<Runnable> closers = new ArrayList<>();
  private boolean abandoned;

  /** One step's result, to wait for. */
  static final class Step<T> {
    private final CompletableFuture<T> result;

    private Step(CompletableFuture<T> result) {
      this.result = result;
    }

    /** Waits up to {@code seconds} and answers the step's result, or throws what the step threw. */
    T await(long seconds) throws Exception {
      try {
        return result.get(seconds, TimeUnit.SECONDS);
      } catch (ExecutionException | CompletionException e) {
        throw e.getCause() instanceof Exception cause ? cause : e;
      }
    }
  }

  /** Runs {@code step} on a thread of its own; {@code close} releases its result if the start is abandoned. */
  <T> Step<T> begin(String name, Callable<T> step, Consumer<? super T> close) {
    var result = new CompletableFuture<T>();
    long began = StartupMarks.now();
    Thread.ofPlatform().daemon().name("kvfleet-start-" + name).start(() -> {
      try {
        result.complete(step.call());
        StartupMarks.span(name, began);
      } catch (Throwable t) {
        result.completeExceptionally(t);
      }
    });
    synchronized (this) {
      closers.add(() -> result.thenAccept(close));
    }
    return new Step<>(result);
  }

  /** Closes what the steps made, those still running once they finish; call when the start fails. */
  synchronized void abandon() {
    if (!abandoned) {
      abandoned = true;
      closers.forEach(Runnable::run);
    }
  }
}
