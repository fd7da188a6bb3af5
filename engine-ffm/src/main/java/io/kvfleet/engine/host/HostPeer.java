package io.kvfleet.engine.host;

import io.kvfleet.engine.Direction;
import io.kvfleet.engine.EngineException;
import io.kvfleet.engine.RemoteKey;
import io.kvfleet.engine.TransferFailure;
import io.kvfleet.engine.TransferResult;
import io.kvfleet.engine.internal.Hex;
import io.kvfleet.engine.internal.Libc;
import io.kvfleet.engine.spi.BackendPeer;
import io.kvfleet.engine.spi.BackendRemote;
import io.kvfleet.engine.spi.BackendTransfer;
import io.kvfleet.engine.spi.TransferOps;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Optional;

/**
 * A process on this host. Batches run synchronously in {@link #post}, up to {@value #IOV_MAX} ops
 * per {@code process_vm_writev}/{@code readv} call; the kernel checks both address ranges, so a
 * stale remote range is an EFAULT, not a crash.
 */
final class HostPeer implements BackendPeer {
  static final int IOV_MAX = 1024;
  private static final String PATH = "host/process_vm";

  private final int pid;

  HostPeer(int pid) {
    this.pid = pid;
  }

  @Override
  public String path() {
    return PATH;
  }

  @Override
  public BackendRemote attach(RemoteKey key) {
    HostKey decoded = HostKey.decode(key.packed());
    if (decoded.pid() != pid) {
      throw EngineException.foreign(key.toString(), "made by pid " + decoded.pid()
          + ", this peer is pid " + pid);
    }
    return new HostRemote(decoded);
  }

  @Override
  public BackendTransfer post(Direction direction, TransferOps ops) {
    long start = System.nanoTime();
    TransferResult result = run(direction, ops);
    TransferResult ended = result != null ? result
        : new TransferResult.Completed(ops.totalBytes(), ops.size(), System.nanoTime() - start, PATH);
    return new BackendTransfer() {
      @Override
      public Optional<TransferResult> poll() {
        return Optional.of(ended);
      }

      @Override
      public void abandon() {}
    };
  }

  /** Null when every op moved, else the failure. */
  private TransferResult run(Direction direction, TransferOps ops) {
    try (var arena = Arena.ofConfined()) {
      int capacity = Math.min(IOV_MAX, ops.size());
      MemorySegment local = arena.allocate(Libc.IOVEC, capacity);
      MemorySegment remote = arena.allocate(Libc.IOVEC, capacity);
      int next = 0;
      while (next < ops.size()) {
        int count = Math.min(IOV_MAX, ops.size() - next);
        long expected = fill(ops, next, count, local, remote);
        Libc.Result moved = direction == Direction.WRITE
            ? Libc.processVmWritev(pid, local, count, remote, count)
            : Libc.processVmReadv(pid, local, count, remote, count);
        if (moved.failed()) {
          return failure(direction, ops, next, moved.errno());
        }
        int done = completeOps(ops, next, count, moved.value());
        if (done == 0) {
          return failure(direction, ops, next, Libc.EFAULT);
        }
        next += done;
        if (moved.value() == expected) {
          continue;
        }
      }
      return null;
    }
  }

  private static long fill(TransferOps ops, int first, int count, MemorySegment local,
      MemorySegment remote) {
    long expected = 0;
    for (int i = 0; i < count; i++) {
      int op = first + i;
      local.setAtIndex(ValueLayout.JAVA_LONG, 2L * i, ops.localAddress(op));
      local.setAtIndex(ValueLayout.JAVA_LONG, 2L * i + 1, ops.length(op));
      remote.setAtIndex(ValueLayout.JAVA_LONG, 2L * i, ops.remoteAddress(op));
      remote.setAtIndex(ValueLayout.JAVA_LONG, 2L * i + 1, ops.length(op));
      expected += ops.length(op);
    }
    return expected;
  }

  /** How many whole ops {@code bytes} covers (the kernel never splits an iovec element). */
  private static int completeOps(TransferOps ops, int first, int count, long bytes) {
    int done = 0;
    long left = bytes;
    while (done < count && left >= ops.length(first + done)) {
      left -= ops.length(first + done);
      done++;
    }
    return done;
  }

  private TransferResult failure(Direction direction, TransferOps ops, int op, int errno) {
    String call = direction == Direction.WRITE ? "process_vm_writev" : "process_vm_readv";
    TransferFailure reason = errno == Libc.ESRCH ? TransferFailure.PEER_LOST
        : TransferFailure.TRANSPORT_ERROR;
    return new TransferResult.Failed(reason,
        "op " + op + ": " + call + " to pid " + pid + " of " + ops.length(op) + " bytes between local "
            + Hex.address(ops.localAddress(op)) + " and remote " + Hex.address(ops.remoteAddress(op))
            + " failed" + (errno == Libc.ESRCH ? " (the peer process is gone)" : ""),
        errno, Libc.strerror(errno), op, PATH);
  }

  @Override
  public void close() {}
}
