package io.kvfleet.engine;

import static java.util.Objects.requireNonNull;

import io.kvfleet.engine.spi.BackendPeer;
import io.kvfleet.engine.spi.BackendRemote;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A connection from this engine to one remote worker through one backend. Thread-safe: batches
 * from several threads are serialised by the backend. Close it (or the engine) to release it.
 */
public final class Peer implements AutoCloseable {
  private final Engine engine;
  private final WorkerAddress remoteAddress;
  private final BackendPeer delegate;
  private final Set<RemoteRegion> attached = ConcurrentHashMap.newKeySet();
  private volatile String broken;
  private volatile boolean closed;

  Peer(Engine engine, WorkerAddress remoteAddress, BackendPeer delegate) {
    this.engine = engine;
    this.remoteAddress = remoteAddress;
    this.delegate = delegate;
  }

  public String backend() {
    return remoteAddress.backend();
  }

  /** How bytes travel, e.g. {@code ucx/sysv+posix+cma}, {@code ucx/tcp}, {@code host/shm}. */
  public String path() {
    return delegate.path();
  }

  public WorkerAddress remoteAddress() {
    return remoteAddress;
  }

  /** Imports a region the peer registered (from its published {@link RemoteKey}). */
  public RemoteRegion attach(RemoteKey key) {
    requireNonNull(key, "key must not be null");
    if (closed) {
      throw EngineException.closed("peer " + remoteAddress);
    }
    if (!key.backend().equals(backend())) {
      throw EngineException.foreign("remote key " + key, "this peer is connected through "
          + backend() + ", the key was made by " + key.backend());
    }
    BackendRemote remote = delegate.attach(key);
    RemoteRegion region = new RemoteRegion(this, key, remote);
    attached.add(region);
    return region;
  }

  /** Starts a batch; range and ownership failures come back as an already-ended transfer. */
  public PendingTransfer post(Direction direction, TransferBatch batch) {
    requireNonNull(direction, "direction must not be null");
    requireNonNull(batch, "batch must not be null");
    if (closed || broken != null) {
      return PendingTransfer.done(this, TransferResult.Failed.of(TransferFailure.PEER_LOST,
          closed ? "the peer is closed" : "the peer is broken: " + broken, -1, path()));
    }
    if (batch.size() == 0) {
      return PendingTransfer.done(this, new TransferResult.Completed(0, 0, 0, path()));
    }
    List<Registration> holds = BatchCheck.newHolds();
    TransferResult.Failed failed = BatchCheck.check(this, batch, holds);
    if (failed != null) {
      return PendingTransfer.done(this, failed);
    }
    try {
      return new PendingTransfer(this, delegate.post(direction, batch.ops), holds,
          engine.config().transferDeadline());
    } catch (RuntimeException e) {
      holds.forEach(Registration::release);
      throw e;
    }
  }

  /** Writes the batch and waits for it (remote completion). */
  public TransferResult write(TransferBatch batch) {
    return post(Direction.WRITE, batch).await();
  }

  /** Reads the batch and waits for it. */
  public TransferResult read(TransferBatch batch) {
    return post(Direction.READ, batch).await();
  }

  /** Whether it can still carry batches. */
  public boolean isUsable() {
    return !closed && broken == null;
  }

  Engine engine() {
    return engine;
  }

  void markBroken(String why) {
    broken = why;
  }

  void detach(RemoteRegion region) {
    if (attached.remove(region)) {
      region.release();
    }
  }

  /** Releases attached regions and the connection; idempotent. */
  @Override
  public void close() {
    synchronized (this) {
      if (closed) {
        return;
      }
      closed = true;
    }
    try {
      for (RemoteRegion region : List.copyOf(attached)) {
        detach(region);
      }
      delegate.close();
    } finally {
      engine.forget(this);
    }
  }

  @Override
  public String toString() {
    return "Peer[" + backend() + " " + path() + (isUsable() ? "" : ", unusable") + "]";
  }
}
