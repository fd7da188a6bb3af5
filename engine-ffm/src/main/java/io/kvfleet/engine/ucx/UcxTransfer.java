package io.kvfleet.engine.ucx;

import io.kvfleet.engine.Direction;
import io.kvfleet.engine.TransferFailure;
import io.kvfleet.engine.TransferResult;
import io.kvfleet.engine.internal.Calls;
import io.kvfleet.engine.internal.Hex;
import io.kvfleet.engine.spi.BackendTransfer;
import io.kvfleet.engine.spi.TransferOps;
import io.kvfleet.engine.ucx.internal.Ucp;
import io.kvfleet.engine.ucx.internal.UcsStatus;
import java.util.Arrays;
import java.util.Optional;

/**
 * One posted batch: every op as {@code ucp_put_nbx} / {@code ucp_get_nbx}, then {@code
 * ucp_ep_flush_nbx} so that completion means the bytes are at the peer. Requests that did not
 * complete at once are kept, checked and freed when the flush is done. Guarded by the peer's lock.
 */
final class UcxTransfer implements BackendTransfer {
  private final UcxPeer peer;
  private final Direction direction;
  private final long startNanos = System.nanoTime();
  private final int ops;
  private final long bytes;
  private long[] requests = new long[8];
  private int requestCount;
  private int checked;
  private long flush;
  private int errorOp = -1;
  private int errorStatus = UcsStatus.OK;
  private String errorWhat = "";
  private TransferResult result;

  private UcxTransfer(UcxPeer peer, Direction direction, TransferOps ops) {
    this.peer = peer;
    this.direction = direction;
    this.ops = ops.size();
    this.bytes = ops.totalBytes();
  }

  /**
   * Posts every op and the flush; call with the peer's lock held. A batch through a region the
   * peer did not confirm ends {@code NO_GRANT} with nothing posted.
   */
  static UcxTransfer start(UcxPeer peer, Direction direction, TransferOps ops) {
    UcxTransfer transfer = new UcxTransfer(peer, direction, ops);
    for (int i = 0; i < ops.size(); i++) {
      String refusal = ((UcxRemote) ops.remote(i)).refusal();
      if (refusal != null) {
        transfer.result = TransferResult.Failed.of(TransferFailure.NO_GRANT, "op " + i
            + ": the peer's UCX worker did not confirm the remote region: " + refusal, i, peer.path());
        return transfer;
      }
    }
    try {
      transfer.postAll(ops);
    } catch (Throwable t) {
      throw Calls.rethrow(t);
    }
    return transfer;
  }

  private void postAll(TransferOps batch) throws Throwable {
    long endpoint = peer.endpoint();
    long param = peer.requestParam();
    int failedAt = direction == Direction.WRITE ? putAll(batch, endpoint) : getAll(batch, endpoint);
    if (failedAt >= 0) {
      fail(failedAt, errorStatus, describe(batch, failedAt));
    }
    long flushed = (long) Ucp.EP_FLUSH_NBX.invokeExact(endpoint, param);
    if (UcsStatus.isError(flushed)) {
      fail(-1, (int) flushed, "ucp_ep_flush_nbx");
    } else {
      flush = flushed;
    }
  }

  // Two loops on the static final handles (not one on a chosen handle): the JIT inlines a
  // constant handle's downcall, which is most of the per-op cost at 4 KiB.
  private int putAll(TransferOps batch, long endpoint) throws Throwable {
    for (int i = 0; i < batch.size(); i++) {
      long status = (long) Ucp.PUT_NBX.invokeExact(endpoint, batch.localAddress(i),
          batch.length(i), batch.remoteAddress(i), ((UcxRemote) batch.remote(i)).rkey(),
          ((UcxRegion) batch.local(i)).requestParam());
      if (status != 0 && !accept(status)) {
        return i;
      }
    }
    return -1;
  }

  private int getAll(TransferOps batch, long endpoint) throws Throwable {
    for (int i = 0; i < batch.size(); i++) {
      long status = (long) Ucp.GET_NBX.invokeExact(endpoint, batch.localAddress(i),
          batch.length(i), batch.remoteAddress(i), ((UcxRemote) batch.remote(i)).rkey(),
          ((UcxRegion) batch.local(i)).requestParam());
      if (status != 0 && !accept(status)) {
        return i;
      }
    }
    return -1;
  }

  /**
   * Keeps a request and progresses the worker once, as ucx_perftest does after each send: a
   * transport that queues (TCP) then keeps its socket busy instead of piling up a whole batch.
   * Puts that complete at once (shared memory) never get here. False for an error.
   */
  private boolean accept(long status) {
    if (UcsStatus.isError(status)) {
      errorStatus = (int) status;
      return false;
    }
    keep(status);
    peer.progress();
    return true;
  }

  @Override
  public Optional<TransferResult> poll() {
    return peer.locked(() -> {
      if (result == null && isComplete()) {
        result = finish();
      }
      return Optional.ofNullable(result);
    });
  }

  private boolean isComplete() {
    peer.progress();
    if (flush != 0) {
      int status = UcxPeer.status(flush);
      if (status == UcsStatus.INPROGRESS) {
        return false;
      }
      free(flush);
      flush = 0;
      if (status != UcsStatus.OK) {
        fail(-1, status, "ucp_ep_flush_nbx");
      }
    }
    while (checked < requestCount) {
      long request = requests[checked];
      int status = UcxPeer.status(request);
      if (status == UcsStatus.INPROGRESS) {
        return false;
      }
      free(request);
      checked++;
      if (status != UcsStatus.OK) {
        fail(-1, status, "a " + (direction == Direction.WRITE ? "put" : "get") + " request");
      }
    }
    return true;
  }

  private TransferResult finish() {
    if (errorStatus == UcsStatus.OK) {
      return new TransferResult.Completed(bytes, ops, System.nanoTime() - startNanos, peer.path());
    }
    return new TransferResult.Failed(UcxFailures.transferFailure(errorStatus),
        (errorOp >= 0 ? "op " + errorOp + ": " : "") + errorWhat + " failed with "
            + UcsStatus.name(errorStatus),
        errorStatus, UcsStatus.message(errorStatus), errorOp, peer.path());
  }

  @Override
  public void abandon() {
    peer.locked(() -> {
      for (int i = checked; i < requestCount; i++) {
        free(requests[i]); // UCX releases it when (if ever) it completes
      }
      checked = requestCount;
      if (flush != 0) {
        free(flush);
        flush = 0;
      }
    });
  }

  private void keep(long request) {
    if (requestCount == requests.length) {
      requests = Arrays.copyOf(requests, requestCount * 2);
    }
    requests[requestCount++] = request;
  }

  private void fail(int op, int status, String what) {
    if (errorOp < 0 && errorWhat.isEmpty()) {
      errorOp = op;
      errorStatus = status;
      errorWhat = what;
    }
  }

  private String describe(TransferOps batch, int i) {
    return (direction == Direction.WRITE ? "ucp_put_nbx" : "ucp_get_nbx") + " of "
        + batch.length(i) + " bytes between local " + Hex.address(batch.localAddress(i))
        + " and remote " + Hex.address(batch.remoteAddress(i));
  }

  private static void free(long request) {
    try {
      Ucp.REQUEST_FREE.invokeExact(request);
    } catch (Throwable t) {
      throw Calls.rethrow(t);
    }
  }
}
