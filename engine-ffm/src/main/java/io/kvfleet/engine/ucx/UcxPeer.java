package io.kvfleet.engine.ucx;

import io.kvfleet.engine.Direction;
import io.kvfleet.engine.RemoteKey;
import io.kvfleet.engine.internal.Calls;
import io.kvfleet.engine.spi.BackendPeer;
import io.kvfleet.engine.spi.BackendRemote;
import io.kvfleet.engine.spi.BackendTransfer;
import io.kvfleet.engine.spi.TransferOps;
import io.kvfleet.engine.ucx.internal.Ucp;
import io.kvfleet.engine.ucx.internal.UcpLayouts;
import io.kvfleet.engine.ucx.internal.UcsStatus;
import java.lang.foreign.Arena;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

/** An endpoint from this engine's initiator worker to a peer's target worker. */
final class UcxPeer implements BackendPeer {
  private static final long CLOSE_WAIT_NANOS = 2_000_000_000L;

  private final UcpWorker initiator;
  private final ReentrantLock lock;
  private final UcpEndpoint endpoint;
  private final String path;
  private final Arena arena = Arena.ofShared();
  private final long requestParam;
  private boolean closed;

  private UcxPeer(UcpWorker initiator, ReentrantLock lock, UcpEndpoint endpoint) {
    this.initiator = initiator;
    this.lock = lock;
    this.endpoint = endpoint;
    List<String> lanes = UcxInfo.laneTransports(endpoint.info());
    this.path = "ucx/" + (lanes.isEmpty() ? "unknown" : String.join("+", lanes));
    this.requestParam = arena.allocate(UcpLayouts.REQUEST_PARAM).address(); // zeroed: defaults
  }

  static UcxPeer connect(UcpWorker initiator, ReentrantLock lock, byte[] remoteAddress,
      boolean peerErrorHandling) {
    lock.lock();
    try {
      return new UcxPeer(initiator, lock,
          UcpEndpoint.connect(initiator, remoteAddress, peerErrorHandling));
    } finally {
      lock.unlock();
    }
  }

  @Override
  public String path() {
    return path;
  }

  @Override
  public BackendRemote attach(RemoteKey key) {
    return locked(() -> new UcxRemote(this, endpoint.unpack(key.packed(), key.toString())));
  }

  @Override
  public BackendTransfer post(Direction direction, TransferOps ops) {
    return locked(() -> UcxTransfer.start(this, direction, ops));
  }

  long endpoint() {
    return endpoint.handle();
  }

  long requestParam() {
    return requestParam;
  }

  int progress() {
    return initiator.progress();
  }

  <T> T locked(Supplier<T> action) {
    lock.lock();
    try {
      return action.get();
    } finally {
      lock.unlock();
    }
  }

  void locked(Runnable action) {
    lock.lock();
    try {
      action.run();
    } finally {
      lock.unlock();
    }
  }

  /** Flushes and closes the endpoint, waiting up to 2 s for the peer. */
  @Override
  public void close() {
    locked(() -> {
      if (closed) {
        return;
      }
      closed = true;
      try {
        long request = endpoint.startClose(false);
        if (UcsStatus.isRequest(request)) {
          long deadline = System.nanoTime() + CLOSE_WAIT_NANOS;
          while (status(request) == UcsStatus.INPROGRESS && System.nanoTime() < deadline) {
            initiator.progress();
          }
          Ucp.REQUEST_FREE.invokeExact(request);
        }
      } catch (Throwable t) {
        throw Calls.rethrow(t);
      } finally {
        arena.close();
      }
    });
  }

  static int status(long request) {
    try {
      return (int) Ucp.REQUEST_CHECK_STATUS.invokeExact(request);
    } catch (Throwable t) {
      throw Calls.rethrow(t);
    }
  }

}
