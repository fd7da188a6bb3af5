package io.kvfleet.engine.host;

import io.kvfleet.engine.Direction;
import io.kvfleet.engine.EngineException;
import io.kvfleet.engine.RemoteKey;
import io.kvfleet.engine.TransferFailure;
import io.kvfleet.engine.TransferResult;
import io.kvfleet.engine.internal.FileCalls;
import io.kvfleet.engine.internal.Libc;
import io.kvfleet.engine.spi.BackendPeer;
import io.kvfleet.engine.spi.BackendRemote;
import io.kvfleet.engine.spi.BackendTransfer;
import io.kvfleet.engine.spi.TransferOps;
import java.lang.foreign.MemorySegment;
import java.util.Optional;

/**
 * A worker on this host, reached only through the grants it made: {@link #attach} maps a key's
 * grant (or records why it cannot), and a batch copies between local memory and mapped grants
 * with {@link MemorySegment#copy}, after checking that every grant it touches is still there.
 * Batches run synchronously in {@link #post}, one at a time per peer, so a mapping is never
 * dropped under a copy. A grant its owner truncates under a copy faults; the JVM turns that fault
 * into an {@link InternalError} for the copying thread, which fails the batch, not the process.
 */
@SuppressWarnings("restricted") // FFM by design: local registrations are native memory
final class HostPeer implements BackendPeer {
  static final String PATH = "host/shm";

  private final long token;
  /** The peer's process as its owner file says (never a record): to tell when it is gone. */
  private final int pid;

  HostPeer(long token, int pid) {
    this.token = token;
    this.pid = pid;
  }

  @Override
  public String path() {
    return PATH;
  }

  @Override
  public synchronized BackendRemote attach(RemoteKey key) {
    HostKey decoded;
    try {
      decoded = HostKey.decode(key.packed());
    } catch (EngineException e) {
      return HostRemote.refused(this, key.address(), e.getMessage());
    }
    if (!Grants.madeBy(decoded.grant(), token)) {
      return HostRemote.refused(this, key.address(), "\"" + decoded.grant()
          + "\" is not a grant of this peer (its grants are kvfleet-grant-"
          + java.util.HexFormat.of().toHexDigits(token) + "...)");
    }
    if (key.length() > decoded.length()) {
      return HostRemote.refused(this, key.address(), "the key claims " + key.length()
          + " bytes, its grant covers " + decoded.length());
    }
    return switch (GrantMapping.open(decoded.grant(), decoded.offset(), decoded.length())) {
      case GrantMapping.Refused refused -> HostRemote.refused(this, key.address(), refused.detail());
      case GrantMapping.Mapped mapped -> HostRemote.granted(this, key.address(), mapped.mapping());
    };
  }

  synchronized void release(HostRemote remote) {
    remote.drop("released");
  }

  @Override
  public synchronized BackendTransfer post(Direction direction, TransferOps ops) {
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

  /** Null when every op moved, else the failure; nothing moves unless every grant is there. */
  private TransferResult run(Direction direction, TransferOps ops) {
    if (!FileCalls.exists(pid)) {
      return new TransferResult.Failed(TransferFailure.PEER_LOST, "the peer's process " + pid
          + " is gone", Libc.ESRCH, Libc.strerror(Libc.ESRCH), 0, PATH);
    }
    HostRemote previous = null;
    for (int i = 0; i < ops.size(); i++) {
      HostRemote remote = (HostRemote) ops.remote(i);
      if (remote == previous) {
        continue;
      }
      String refusal = remote.refusal();
      if (refusal != null) {
        return TransferResult.Failed.of(TransferFailure.NO_GRANT, "op " + i + ": no grant covers"
            + " the remote region: " + refusal, i, PATH);
      }
      previous = remote;
    }
    for (int i = 0; i < ops.size(); i++) {
      HostRemote remote = (HostRemote) ops.remote(i);
      long at = ops.remoteAddress(i) - remote.keyAddress;
      MemorySegment granted = remote.mapping().segment();
      if (at < 0 || at > granted.byteSize() - ops.length(i)) {
        return TransferResult.Failed.of(TransferFailure.OUT_OF_BOUNDS, "op " + i + ": offset " + at
            + " length " + ops.length(i) + " is outside the grant's " + granted.byteSize() + " bytes",
            i, PATH);
      }
      MemorySegment local = MemorySegment.ofAddress(ops.localAddress(i)).reinterpret(ops.length(i));
      try {
        if (direction == Direction.WRITE) {
          MemorySegment.copy(local, 0, granted, at, ops.length(i));
        } else {
          MemorySegment.copy(granted, at, local, 0, ops.length(i));
        }
      } catch (InternalError fault) { // SIGBUS: the grant's file shrank under the copy
        String grant = remote.mapping().name();
        remote.drop("grant " + grant + " faulted under a copy (truncated by its owner?)");
        return TransferResult.Failed.of(TransferFailure.NO_GRANT, "op " + i + ": grant " + grant
            + " faulted under the copy (" + fault.getMessage() + "); its owner truncated it", i, PATH);
      }
    }
    return null;
  }

  @Override
  public void close() {}
}
