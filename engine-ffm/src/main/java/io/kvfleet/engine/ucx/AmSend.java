package io.kvfleet.engine.ucx;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;

import io.kvfleet.engine.internal.Calls;
import io.kvfleet.engine.ucx.internal.Ucp;
import io.kvfleet.engine.ucx.internal.UcpLayouts;
import io.kvfleet.engine.ucx.internal.UcsStatus;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * One active message ({@code ucp_am_send_nbx}) on its way. Its buffer lives in its own arena until
 * UCX is done with it: {@link #release()} frees it only then. Used by whoever progresses the
 * worker the endpoint belongs to.
 */
final class AmSend {
  private final Arena arena;
  private long request;
  private int status;

  private AmSend(Arena arena, long request, int status) {
    this.arena = arena;
    this.request = request;
    this.status = status;
  }

  /** Sends {@code data} as message {@code id} on {@code endpoint} with {@code flags}. */
  static AmSend start(long endpoint, int id, byte[] data, int flags) {
    Arena arena = Arena.ofShared();
    try {
      MemorySegment buffer = arena.allocate(data.length);
      MemorySegment.copy(data, 0, buffer, JAVA_BYTE, 0, data.length);
      MemorySegment param = arena.allocate(UcpLayouts.REQUEST_PARAM);
      UcpLayouts.REQUEST_PARAM_OP_ATTR_MASK.set(param, Ucp.OP_ATTR_FIELD_FLAGS);
      UcpLayouts.REQUEST_PARAM_FLAGS.set(param, flags);
      long sent = (long) Ucp.AM_SEND_NBX.invokeExact(endpoint, id, 0L, 0L, buffer.address(),
          (long) data.length, param.address());
      AmSend send = new AmSend(arena, UcsStatus.isRequest(sent) ? sent : 0, UcsStatus.of(sent));
      send.isDone();
      return send;
    } catch (Throwable t) {
      arena.close();
      throw Calls.rethrow(t);
    }
  }

  /** Whether UCX is done with it (sent or failed); frees the request then. */
  boolean isDone() {
    if (request != 0) {
      int now = UcxPeer.status(request);
      if (now == UcsStatus.INPROGRESS) {
        return false;
      }
      free(request);
      request = 0;
      status = now;
    }
    return true;
  }

  /** OK, INPROGRESS while on its way, or the error. */
  int status() {
    return status;
  }

  /** Frees the buffer once done; false (and keeps it) while UCX may still read it. */
  boolean release() {
    if (!isDone()) {
      return false;
    }
    arena.close();
    return true;
  }

  /** Hands the request back to UCX, which frees it when it completes (the buffer stays). */
  void abandon() {
    if (request != 0) {
      free(request);
      request = 0;
    }
  }

  /** Frees the buffer; only once the worker is destroyed (nothing reads it any more). */
  void closeAfterWorker() {
    arena.close();
  }

  private static void free(long request) {
    try {
      Ucp.REQUEST_FREE.invokeExact(request);
    } catch (Throwable t) {
      throw Calls.rethrow(t);
    }
  }
}
