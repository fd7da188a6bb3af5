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
import io.kvfleet.engine.internal.Hex;
import java.lang.foreign.Arena;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

/**
 * An endpoint from this engine's initiator worker to a peer's target worker. Before it unpacks a
 * remote key it asks the peer's worker, over this endpoint, whether it registered that key's range
 * ({@link RegionQuery}); only a confirmed key is ever used.
 */
final class UcxPeer implements BackendPeer {
  private static final long CLOSE_WAIT_NANOS = 2_000_000_000L;
  /** How long a peer's worker has to answer a question about a region. */
  static final long CONFIRM_WAIT_NANOS = 5_000_000_000L;
  private static final SecureRandom IDS = new SecureRandom();

  private final UcpWorker initiator;
  private final ReentrantLock lock;
  private final UcpEndpoint endpoint;
  private final String path;
  private final Arena arena = Arena.ofShared();
  private final long requestParam;
  private final QueryAnswers answers;
  private final QueryEndpoints queries;
  private final byte[] remoteAddress;
  private final byte[] remoteDigest;
  /** Questions UCX had not sent when their wait ended; freed after the endpoint closed. */
  private final List<AmSend> unsent = new ArrayList<>();
  private boolean closed;

  private UcxPeer(UcpWorker initiator, ReentrantLock lock, UcpEndpoint endpoint,
      QueryAnswers answers, QueryEndpoints queries, byte[] remoteAddress) {
    this.initiator = initiator;
    this.lock = lock;
    this.endpoint = endpoint;
    this.answers = answers;
    this.queries = queries;
    this.remoteAddress = remoteAddress.clone();
    this.remoteDigest = RegionVouching.digest(remoteAddress);
    List<String> lanes = UcxInfo.laneTransports(endpoint.info());
    this.path = "ucx/" + (lanes.isEmpty() ? "unknown" : String.join("+", lanes));
    this.requestParam = arena.allocate(UcpLayouts.REQUEST_PARAM).address(); // zeroed: defaults
  }

  static UcxPeer connect(UcpWorker initiator, ReentrantLock lock, byte[] remoteAddress,
      boolean peerErrorHandling, QueryAnswers answers, QueryEndpoints queries) {
    lock.lock();
    try {
      return new UcxPeer(initiator, lock,
          UcpEndpoint.connect(initiator, remoteAddress, peerErrorHandling), answers, queries,
          remoteAddress);
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
    String refusal = confirm(key);
    if (refusal != null) {
      return UcxRemote.refused(this, refusal);
    }
    return locked(() -> UcxRemote.confirmed(this, endpoint.unpack(key.packed(), key.toString())));
  }

  /**
   * Asks the peer's worker (through {@link QueryEndpoints}' endpoint to the same address) whether
   * it registered {@code key}'s rkey over the key's range: null when
   * it says so, else why not (it said no, it is not the worker at the address, or no answer came).
   * Progresses the initiator worker under the lock, one pass at a time, so other batches go on.
   */
  private String confirm(RemoteKey key) {
    long id = IDS.nextLong();
    byte[] question = new RegionQuery(id, key.address(), key.length(), remoteDigest, key.packed())
        .encode();
    answers.expect(id);
    AmSend send;
    try {
      send = locked(() -> closed ? null : AmSend.start(queries.to(remoteAddress).handle(),
          RegionQuery.QUERY, question, Ucp.AM_SEND_FLAG_REPLY));
    } catch (RuntimeException e) {
      answers.forget(id);
      return "could not ask the peer's worker: " + e.getMessage();
    }
    if (send == null) {
      answers.forget(id);
      return "the peer is closed";
    }
    try {
      long deadline = System.nanoTime() + CONFIRM_WAIT_NANOS;
      while (true) {
        Optional<RegionQuery.Answer> answer = answers.take(id);
        if (answer.isPresent()) {
          locked(() -> queries.settle(remoteAddress, requestParam));
          return switch (answer.get()) {
            case CONFIRMED -> null;
            case NOT_REGISTERED -> "it registered no region with this rkey covering "
                + Hex.range(key.address(), key.length());
            case NOT_THIS_WORKER -> "the worker that answered is not the one at the address"
                + " this node connected to (a forged or mixed worker address)";
          };
        }
        int status = locked(() -> {
          initiator.progress();
          return send.isDone() ? send.status() : UcsStatus.INPROGRESS;
        });
        if (status != UcsStatus.OK && status != UcsStatus.INPROGRESS) {
          return "the question could not be sent: " + UcsStatus.describe(status);
        }
        if (System.nanoTime() - deadline > 0) {
          return "no answer from the peer's UCX worker within "
              + CONFIRM_WAIT_NANOS / 1_000_000_000L + " s (it is no kvfleet UCX worker, or gone)";
        }
        Thread.onSpinWait();
      }
    } finally {
      answers.forget(id);
      locked(() -> {
        if (!send.release()) {
          unsent.add(send);
        }
      });
    }
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
        unsent.removeIf(AmSend::release);
        unsent.forEach(AmSend::abandon); // their buffers stay: UCX may hold them until the worker goes
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
