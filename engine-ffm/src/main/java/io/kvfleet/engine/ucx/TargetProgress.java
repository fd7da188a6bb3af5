package io.kvfleet.engine.ucx;

import io.kvfleet.engine.EngineConfig.Progress;
import io.kvfleet.engine.internal.Libc;
import io.kvfleet.engine.ucx.internal.UcsStatus;
import java.util.concurrent.locks.LockSupport;
import java.util.function.IntSupplier;

/**
 * The one thread that progresses the target worker, so that peers can connect and write into this
 * engine's memory (TCP needs the target to receive; shared memory needs it for wireup). EVENT
 * sleeps on the worker's event descriptor ({@code ucp_worker_arm} then {@code poll}); BUSY_POLL
 * spins like ucx_perftest's responder.
 */
final class TargetProgress implements AutoCloseable {
  private final UcpWorker worker;
  private final IntSupplier alsoProgress;
  private final Progress mode;
  private final Thread thread;
  private volatile boolean running = true;

  TargetProgress(UcpWorker worker, Progress mode, String name) {
    this(worker, () -> 0, mode, name);
  }

  /**
   * Also runs {@code alsoProgress} on every pass (the initiator worker, when its lock is free): UCX's
   * TCP wireup between two workers finishes only while both are progressed, and UCX 1.13 aborts
   * the process when it destroys a worker with a wireup message still pending.
   */
  TargetProgress(UcpWorker worker, IntSupplier alsoProgress, Progress mode, String name) {
    this.worker = worker;
    this.alsoProgress = alsoProgress;
    this.mode = mode;
    this.thread = Thread.ofPlatform().daemon().name("ucx-target-" + name).unstarted(this::run);
    thread.start();
  }

  private void run() {
    int eventFd = mode == Progress.EVENT ? worker.eventFd() : -1;
    while (running) {
      if (worker.progress() + alsoProgress.getAsInt() != 0) {
        continue;
      }
      if (eventFd < 0) {
        Thread.onSpinWait();
        continue;
      }
      int armed = worker.arm();
      if (armed == UcsStatus.ERR_BUSY) {
        continue;
      }
      if (armed != UcsStatus.OK) {
        LockSupport.parkNanos(1_000_000); // cannot sleep on the fd: poll gently instead
        continue;
      }
      Libc.pollReadable(eventFd, 100);
    }
  }

  @Override
  public void close() {
    running = false;
    if (mode == Progress.EVENT) {
      worker.signal();
    }
    try {
      thread.join(5_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    if (thread.isAlive()) {
      throw new IllegalStateException("the UCX target progress thread did not stop within 5 s");
    }
  }
}
