package io.kvfleet.engine.ucx;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import io.kvfleet.engine.internal.Calls;
import io.kvfleet.engine.ucx.internal.Ucp;
import io.kvfleet.engine.ucx.internal.UcpLayouts;
import io.kvfleet.engine.ucx.internal.UcsStatus;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * A {@code ucp_worker_h} in single-thread mode: exactly one thread at a time progresses it (the
 * target worker's progress thread, or whoever holds the initiator lock). {@link #signal()} is the
 * exception: UCX allows it from any thread.
 */
@SuppressWarnings("restricted") // FFM by design: native addresses from libc and UCX
final class UcpWorker implements AutoCloseable {
  private final long handle;
  private final byte[] address;
  private final String role;
  private boolean closed;

  private UcpWorker(long handle, byte[] address, String role) {
    this.handle = handle;
    this.address = address;
    this.role = role;
  }

  static UcpWorker create(UcpContext context, String role) {
    try (var arena = Arena.ofConfined()) {
      MemorySegment params = arena.allocate(UcpLayouts.WORKER_PARAMS);
      UcpLayouts.WORKER_PARAMS_FIELD_MASK
          .set(params, Ucp.WORKER_PARAM_FIELD_THREAD_MODE);
      UcpLayouts.WORKER_PARAMS_THREAD_MODE.set(params, Ucp.THREAD_MODE_SINGLE);
      MemorySegment out = arena.allocate(JAVA_LONG);
      int status = (int) Ucp.WORKER_CREATE.invokeExact(context.handle(), params, out);
      UcpContext.check(status, "ucp_worker_create", role + " worker of " + context.name());
      long worker = out.get(JAVA_LONG, 0);
      try {
        return new UcpWorker(worker, address(arena, worker, role), role);
      } catch (RuntimeException e) {
        Ucp.WORKER_DESTROY.invokeExact(worker);
        throw e;
      }
    } catch (Throwable t) {
      throw Calls.rethrow(t);
    }
  }

  private static byte[] address(Arena arena, long worker, String role) throws Throwable {
    MemorySegment addressOut = arena.allocate(JAVA_LONG);
    MemorySegment lengthOut = arena.allocate(JAVA_LONG);
    int status = (int) Ucp.WORKER_GET_ADDRESS.invokeExact(worker, addressOut, lengthOut);
    UcpContext.check(status, "ucp_worker_get_address", role + " worker");
    long address = addressOut.get(JAVA_LONG, 0);
    long length = lengthOut.get(JAVA_LONG, 0);
    try {
      return MemorySegment.ofAddress(address).reinterpret(length).toArray(JAVA_BYTE);
    } finally {
      Ucp.WORKER_RELEASE_ADDRESS.invokeExact(worker, address);
    }
  }

  long handle() {
    return handle;
  }

  /** The worker address a peer connects to (a copy). */
  byte[] address() {
    return address.clone();
  }

  /** One progress pass; non-zero when something moved. */
  int progress() {
    try {
      return (int) Ucp.WORKER_PROGRESS.invokeExact(handle);
    } catch (Throwable t) {
      throw Calls.rethrow(t);
    }
  }

  /**
   * {@code ucp_worker_flush_nbx}, progressing this worker and {@code alsoProgress} until it is done
   * or {@code waitNanos} passed: finishes wireup messages still pending on its endpoints (UCX 1.13
   * aborts when it destroys a worker that has some).
   */
  void settle(long waitNanos, Runnable alsoProgress) {
    try (var arena = Arena.ofConfined()) {
      MemorySegment params = arena.allocate(UcpLayouts.REQUEST_PARAM);
      long request = (long) Ucp.WORKER_FLUSH_NBX.invokeExact(handle, params);
      if (UcsStatus.isRequest(request)) {
        long deadline = System.nanoTime() + waitNanos;
        while ((int) Ucp.REQUEST_CHECK_STATUS.invokeExact(request) == UcsStatus.INPROGRESS
            && System.nanoTime() - deadline < 0) {
          progress();
          alsoProgress.run();
        }
        Ucp.REQUEST_FREE.invokeExact(request);
      }
    } catch (Throwable t) {
      throw Calls.rethrow(t);
    }
  }

  /** The event file descriptor (needs the WAKEUP feature). */
  int eventFd() {
    try (var arena = Arena.ofConfined()) {
      MemorySegment out = arena.allocate(JAVA_INT);
      int status = (int) Ucp.WORKER_GET_EFD.invokeExact(handle, out);
      UcpContext.check(status, "ucp_worker_get_efd", role + " worker");
      return out.get(JAVA_INT, 0);
    } catch (Throwable t) {
      throw Calls.rethrow(t);
    }
  }

  /** {@code ucp_worker_arm}: OK (armed), ERR_BUSY (progress first) or an error. */
  int arm() {
    try {
      return (int) Ucp.WORKER_ARM.invokeExact(handle);
    } catch (Throwable t) {
      throw Calls.rethrow(t);
    }
  }

  /** Wakes a thread sleeping on {@link #eventFd()}; safe from any thread. */
  void signal() {
    try {
      int status = (int) Ucp.WORKER_SIGNAL.invokeExact(handle);
      UcpContext.check(status, "ucp_worker_signal", role + " worker");
    } catch (Throwable t) {
      throw Calls.rethrow(t);
    }
  }

  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    try {
      Ucp.WORKER_DESTROY.invokeExact(handle);
    } catch (Throwable t) {
      throw Calls.rethrow(t);
    }
  }
}
