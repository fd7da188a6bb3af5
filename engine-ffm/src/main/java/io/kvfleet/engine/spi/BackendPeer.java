package io.kvfleet.engine.spi;

import io.kvfleet.engine.Direction;
import io.kvfleet.engine.RemoteKey;

/** A connection to one remote worker; transfers go through it. */
public interface BackendPeer extends AutoCloseable {

  /** How bytes travel, e.g. {@code ucx/sysv+posix+cma}, {@code ucx/tcp}, {@code host/shm}. */
  String path();

  /** Imports a peer's region; throws {@link io.kvfleet.engine.EngineException} when the key is bad. */
  BackendRemote attach(RemoteKey key);

  /**
   * Starts every op of the batch; the engine has validated ranges and ownership. The ops may be
   * reused once this returns.
   */
  BackendTransfer post(Direction direction, TransferOps ops);

  /** Closes the connection; attached remotes are closed first by the engine. Idempotent. */
  @Override
  void close();
}
