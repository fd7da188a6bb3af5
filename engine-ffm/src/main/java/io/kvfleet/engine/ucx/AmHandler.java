package io.kvfleet.engine.ucx;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import io.kvfleet.engine.internal.Calls;
import io.kvfleet.engine.ucx.internal.Ucp;
import io.kvfleet.engine.ucx.internal.UcpLayouts;
import io.kvfleet.engine.ucx.internal.UcsStatus;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

/**
 * An active-message handler ({@code ucp_worker_set_am_recv_handler}): an upcall that copies a
 * message's bytes (eager messages of at most {@link RegionQuery#MAX_BYTES}; others are dropped)
 * and hands them to a {@link Receiver} on the thread that progresses the worker. Nothing thrown
 * reaches UCX.
 */
@SuppressWarnings("restricted") // FFM by design: an upcall stub and the pointers UCX hands it
final class AmHandler {
  /** What a handler does with a message; {@code replyEndpoint} is 0 when the sender gave none. */
  interface Receiver {
    void receive(byte[] data, long replyEndpoint);
  }

  private static final FunctionDescriptor CALLBACK = FunctionDescriptor.of(JAVA_INT,
      JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG);
  private static final MethodHandle ON_MESSAGE;

  static {
    try {
      ON_MESSAGE = MethodHandles.lookup().findVirtual(AmHandler.class, "onMessage",
          MethodType.methodType(int.class, long.class, long.class, long.class, long.class,
              long.class, long.class));
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  private final Receiver receiver;

  private AmHandler(Receiver receiver) {
    this.receiver = receiver;
  }

  /** Sets the handler of message {@code id} on {@code worker}; the stub lives as long as {@code arena}. */
  static void install(UcpWorker worker, int id, Receiver receiver, Arena arena) {
    MemorySegment stub = Linker.nativeLinker().upcallStub(
        ON_MESSAGE.bindTo(new AmHandler(receiver)), CALLBACK, arena);
    try (var temp = Arena.ofConfined()) {
      MemorySegment param = temp.allocate(UcpLayouts.AM_HANDLER_PARAM);
      UcpLayouts.AM_HANDLER_PARAM_FIELD_MASK.set(param, Ucp.AM_HANDLER_PARAM_FIELD_ID
          | Ucp.AM_HANDLER_PARAM_FIELD_FLAGS | Ucp.AM_HANDLER_PARAM_FIELD_CB);
      UcpLayouts.AM_HANDLER_PARAM_ID.set(param, id);
      UcpLayouts.AM_HANDLER_PARAM_FLAGS.set(param, Ucp.AM_FLAG_WHOLE_MSG);
      UcpLayouts.AM_HANDLER_PARAM_CB.set(param, stub);
      int status = (int) Ucp.WORKER_SET_AM_RECV_HANDLER.invokeExact(worker.handle(), param);
      UcpContext.check(status, "ucp_worker_set_am_recv_handler", "message id " + id);
    } catch (Throwable t) {
      throw Calls.rethrow(t);
    }
  }

  @SuppressWarnings("unused") // the upcall's target
  private int onMessage(long arg, long header, long headerLength, long data, long length,
      long param) {
    try {
      MemorySegment recv = MemorySegment.ofAddress(param).reinterpret(UcpLayouts.AM_RECV_PARAM.byteSize());
      long attr = (long) UcpLayouts.AM_RECV_PARAM_RECV_ATTR.get(recv);
      if ((attr & Ucp.AM_RECV_ATTR_FLAG_RNDV) != 0 || length < 0 || length > RegionQuery.MAX_BYTES
          || data == 0) {
        return UcsStatus.OK; // not a message of ours: UCX drops it
      }
      long reply = (attr & Ucp.AM_RECV_ATTR_FIELD_REPLY_EP) != 0
          ? ((MemorySegment) UcpLayouts.AM_RECV_PARAM_REPLY_EP.get(recv)).address() : 0;
      receiver.receive(MemorySegment.ofAddress(data).reinterpret(length).toArray(JAVA_BYTE), reply);
    } catch (Throwable t) {
      // an exception must not unwind into UCX: the message is dropped, the asker times out
    }
    return UcsStatus.OK;
  }
}
