package io.kvfleet.engine.ucx;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import io.kvfleet.engine.EngineException;
import io.kvfleet.engine.internal.Calls;
import io.kvfleet.engine.internal.MemStream;
import io.kvfleet.engine.ucx.internal.Ucp;
import io.kvfleet.engine.ucx.internal.UcpLayouts;
import io.kvfleet.engine.ucx.internal.UcsStatus;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * A {@code ucp_ep_h} on the initiator worker. Every call runs under the backend's initiator lock;
 * this class does not lock by itself.
 */
final class UcpEndpoint {
  private final long handle;
  private final boolean peerErrorHandling;

  private UcpEndpoint(long handle, boolean peerErrorHandling) {
    this.handle = handle;
    this.peerErrorHandling = peerErrorHandling;
  }

  /**
   * Connects to a remote worker address. With {@code peerErrorHandling} it asks for
   * UCP_ERR_HANDLING_MODE_PEER and falls back to NONE when the transports cannot honour it
   * (shared memory), so a dead TCP peer fails a batch instead of hanging it.
   */
  static UcpEndpoint connect(UcpWorker worker, byte[] remoteAddress, boolean peerErrorHandling) {
    if (peerErrorHandling) {
      try {
        return create(worker, remoteAddress, Ucp.ERR_HANDLING_MODE_PEER);
      } catch (EngineException e) {
        if (e.nativeCode() != UcsStatus.ERR_UNREACHABLE) {
          throw e;
        }
      }
    }
    return create(worker, remoteAddress, Ucp.ERR_HANDLING_MODE_NONE);
  }

  private static UcpEndpoint create(UcpWorker worker, byte[] remoteAddress, int errorMode) {
    try (var arena = Arena.ofConfined()) {
      MemorySegment address = arena.allocate(remoteAddress.length);
      MemorySegment.copy(remoteAddress, 0, address, JAVA_BYTE, 0, remoteAddress.length);
      MemorySegment params = arena.allocate(UcpLayouts.EP_PARAMS);
      UcpLayouts.EP_PARAMS_FIELD_MASK.set(params,
          Ucp.EP_PARAM_FIELD_REMOTE_ADDRESS | Ucp.EP_PARAM_FIELD_ERR_HANDLING_MODE);
      UcpLayouts.EP_PARAMS_ADDRESS.set(params, address);
      UcpLayouts.EP_PARAMS_ERR_MODE.set(params, errorMode);
      MemorySegment out = arena.allocate(JAVA_LONG);
      int status = (int) Ucp.EP_CREATE.invokeExact(worker.handle(), params, out);
      if (status != UcsStatus.OK) {
        throw EngineException.connectFailed("ucx", "ucp_ep_create to a " + remoteAddress.length
            + "-byte worker address (error mode " + (errorMode == Ucp.ERR_HANDLING_MODE_PEER
            ? "PEER" : "NONE") + ")", status, UcsStatus.describe(status));
      }
      return new UcpEndpoint(out.get(JAVA_LONG, 0), errorMode == Ucp.ERR_HANDLING_MODE_PEER);
    } catch (Throwable t) {
      throw Calls.rethrow(t);
    }
  }

  long handle() {
    return handle;
  }

  boolean peerErrorHandling() {
    return peerErrorHandling;
  }

  /** {@code ucp_ep_print_info}: the lanes UCX chose. */
  String info() {
    return MemStream.capture(file -> {
      try {
        Ucp.EP_PRINT_INFO.invokeExact(handle, file);
      } catch (Throwable t) {
        throw Calls.rethrow(t);
      }
    });
  }

  /** Unpacks a peer's rkey for this endpoint; the caller owns the returned {@code ucp_rkey_h}. */
  long unpack(byte[] packed, String what) {
    try (var arena = Arena.ofConfined()) {
      MemorySegment buffer = arena.allocate(Math.max(1, packed.length));
      MemorySegment.copy(packed, 0, buffer, JAVA_BYTE, 0, packed.length);
      MemorySegment out = arena.allocate(JAVA_LONG);
      int status = (int) Ucp.EP_RKEY_UNPACK.invokeExact(handle, buffer, out);
      if (status != UcsStatus.OK) {
        throw EngineException.attachFailed(what, status, UcsStatus.describe(status));
      }
      return out.get(JAVA_LONG, 0);
    } catch (Throwable t) {
      throw Calls.rethrow(t);
    }
  }

  /** Starts closing: a request to wait for, 0 when closed at once, or an error status pointer. */
  long startClose(boolean force) {
    try (var arena = Arena.ofConfined()) {
      MemorySegment params = arena.allocate(UcpLayouts.REQUEST_PARAM);
      if (force) {
        UcpLayouts.REQUEST_PARAM_OP_ATTR_MASK.set(params, Ucp.OP_ATTR_FIELD_FLAGS);
        UcpLayouts.REQUEST_PARAM_FLAGS.set(params, Ucp.EP_CLOSE_FLAG_FORCE);
      }
      return (long) Ucp.EP_CLOSE_NBX.invokeExact(handle, params);
    } catch (Throwable t) {
      throw Calls.rethrow(t);
    }
  }
}
