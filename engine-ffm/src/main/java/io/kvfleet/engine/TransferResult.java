package io.kvfleet.engine;

import static java.util.Objects.requireNonNull;

/** How one batch ended. */
public sealed interface TransferResult {

  /** Whether every byte moved. */
  boolean succeeded();

  /**
   * Every op completed (for WRITE: visible at the peer).
   *
   * @param bytes bytes moved
   * @param ops ops in the batch
   * @param nanos from post to completion
   * @param path how the bytes went, e.g. {@code ucx/tcp} or {@code host/shm}
   */
  record Completed(long bytes, int ops, long nanos, String path) implements TransferResult {
    public Completed {
      requireNonNull(path, "path must not be null");
    }

    @Override
    public boolean succeeded() {
      return true;
    }
  }

  /**
   * The batch failed.
   *
   * @param reason the taxonomy entry
   * @param detail what happened, with op index, addresses and sizes
   * @param nativeCode the native status or errno, 0 when none
   * @param nativeMessage the native message, empty when none
   * @param opIndex the first failing op, -1 when the batch as a whole failed
   * @param path how the bytes were to go
   */
  record Failed(
      TransferFailure reason,
      String detail,
      long nativeCode,
      String nativeMessage,
      int opIndex,
      String path)
      implements TransferResult {
    public Failed {
      requireNonNull(reason, "reason must not be null");
      requireNonNull(detail, "detail must not be null");
      requireNonNull(nativeMessage, "nativeMessage must not be null (use \"\")");
      requireNonNull(path, "path must not be null");
    }

    @Override
    public boolean succeeded() {
      return false;
    }

    /** A failure found by the engine's own checks. */
    public static Failed of(TransferFailure reason, String detail, int opIndex, String path) {
      return new Failed(reason, detail, 0, "", opIndex, path);
    }
  }
}
