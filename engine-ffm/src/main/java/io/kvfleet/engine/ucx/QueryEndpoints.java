package io.kvfleet.engine.ucx;

import io.kvfleet.engine.internal.Calls;
import io.kvfleet.engine.ucx.internal.Ucp;
import io.kvfleet.engine.ucx.internal.UcsStatus;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The endpoints region questions go through: one per remote worker address (the same address
 * bytes as the peer's transfers, so the same worker answers), kept across reconnects. A question
 * sent with a reply endpoint makes the peer's worker keep an endpoint back to this one until it
 * closes; reusing one endpoint per address keeps that to one per pair of workers. At most {@link
 * #MAX} are kept; the least recently used is closed. Used under the initiator lock.
 */
final class QueryEndpoints {
  static final int MAX = 64;
  private static final long CLOSE_WAIT_NANOS = 2_000_000_000L;

  private final UcpWorker initiator;
  private final boolean peerErrorHandling;
  private final Map<String, UcpEndpoint> byAddress = new LinkedHashMap<>(16, 0.75f, true);

  QueryEndpoints(UcpWorker initiator, boolean peerErrorHandling) {
    this.initiator = initiator;
    this.peerErrorHandling = peerErrorHandling;
  }

  /** The endpoint to {@code address}, connecting it the first time; throws when it cannot. */
  UcpEndpoint to(byte[] address) {
    String key = HexFormat.of().formatHex(RegionVouching.digest(address));
    UcpEndpoint endpoint = byAddress.get(key);
    if (endpoint == null) {
      endpoint = UcpEndpoint.connect(initiator, address, peerErrorHandling);
      byAddress.put(key, endpoint);
      if (byAddress.size() > MAX) {
        var eldest = byAddress.entrySet().iterator();
        close(eldest.next().getValue());
        eldest.remove();
      }
    }
    return endpoint;
  }

  /**
   * Flushes the endpoint to {@code address}, progressing the worker up to 1 s, so that its TCP
   * wireup is finished before anything can close either worker (see {@link #close}).
   */
  void settle(byte[] address, long requestParam) {
    UcpEndpoint endpoint = byAddress.get(HexFormat.of().formatHex(RegionVouching.digest(address)));
    if (endpoint == null) {
      return;
    }
    try {
      long request = (long) Ucp.EP_FLUSH_NBX.invokeExact(endpoint.handle(), requestParam);
      if (UcsStatus.isRequest(request)) {
        long deadline = System.nanoTime() + CLOSE_WAIT_NANOS / 2;
        while (UcxPeer.status(request) == UcsStatus.INPROGRESS && System.nanoTime() < deadline) {
          initiator.progress();
        }
        Ucp.REQUEST_FREE.invokeExact(request);
      }
    } catch (Throwable t) {
      throw Calls.rethrow(t);
    }
  }

  /** Closes every endpoint; before the worker is destroyed. */
  void closeAll() {
    byAddress.values().forEach(this::close);
    byAddress.clear();
  }

  /**
   * Flushes and closes, progressing the worker up to 2 s: a forced close (or none) leaves TCP
   * wireup messages pending, and UCX 1.13 aborts the process when it purges those at
   * {@code ucp_worker_destroy}.
   */
  private void close(UcpEndpoint endpoint) {
    long request = endpoint.startClose(false);
    if (UcsStatus.isRequest(request)) {
      long deadline = System.nanoTime() + CLOSE_WAIT_NANOS;
      while (UcxPeer.status(request) == UcsStatus.INPROGRESS && System.nanoTime() < deadline) {
        initiator.progress();
      }
      try {
        Ucp.REQUEST_FREE.invokeExact(request);
      } catch (Throwable t) {
        throw Calls.rethrow(t);
      }
    }
  }
}
