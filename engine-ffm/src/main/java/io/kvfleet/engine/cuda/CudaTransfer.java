package io.kvfleet.engine.cuda;

import static java.lang.foreign.ValueLayout.JAVA_LONG;

import io.kvfleet.engine.Direction;
import io.kvfleet.engine.EngineException;
import io.kvfleet.engine.TransferFailure;
import io.kvfleet.engine.TransferResult;
import io.kvfleet.engine.cuda.internal.CudaEnums;
import io.kvfleet.engine.cuda.internal.CudaStatus;
import io.kvfleet.engine.cuda.internal.Cudart;
import io.kvfleet.engine.internal.Calls;
import io.kvfleet.engine.internal.Hex;
import io.kvfleet.engine.spi.BackendTransfer;
import io.kvfleet.engine.spi.TransferOps;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Optional;

/**
 * One batch queued on a stream ({@code cudaMemcpyAsync} per op, then an event); {@link #poll()}
 * asks the event. When queueing fails part way, the stream is drained before the failure is
 * reported, so no copy is still running once the engine releases the regions.
 */
final class CudaTransfer implements BackendTransfer {
  private final String path;
  private final long bytes;
  private final int ops;
  private final long started;
  private long event;
  private TransferResult result;

  private CudaTransfer(String path, long bytes, int ops, long started, long event,
      TransferResult result) {
    this.path = path;
    this.bytes = bytes;
    this.ops = ops;
    this.started = started;
    this.event = event;
    this.result = result;
  }

  static CudaTransfer start(String path, CudaStream stream, Direction direction, TransferOps ops) {
    long started = System.nanoTime();
    Optional<CudaError> selected = CudaDevice.select(stream.device());
    if (selected.isPresent()) {
      return ended(path, ops, started, failure(path, selected.get(), "cannot select GPU "
          + stream.device(), -1));
    }
    try (var arena = Arena.ofConfined()) {
      for (int i = 0; i < ops.size(); i++) {
        long local = ops.localAddress(i);
        long remote = ((CudaRemote) ops.remote(i)).translate(ops.remoteAddress(i));
        long destination = direction == Direction.WRITE ? remote : local;
        long source = direction == Direction.WRITE ? local : remote;
        int status = (int) Cudart.MEMCPY_ASYNC.invokeExact(destination, source, ops.length(i),
            CudaEnums.MEMCPY_DEFAULT, stream.handle());
        if (status != 0) {
          CudaError error = CudaError.of("cudaMemcpyAsync", status);
          stream.synchronize(); // drains ops 0..i-1; an error here is this one surfacing again
          return ended(path, ops, started, failure(path, error, "op " + i + ": copying "
              + ops.length(i) + " bytes from " + Hex.address(source) + " to "
              + Hex.address(destination) + " (" + direction + ")", i));
        }
      }
      MemorySegment out = arena.allocate(JAVA_LONG);
      int status = (int) Cudart.EVENT_CREATE_WITH_FLAGS.invokeExact(out,
          CudaEnums.EVENT_DISABLE_TIMING);
      String call = "cudaEventCreateWithFlags";
      if (status == 0) {
        long event = out.get(JAVA_LONG, 0);
        status = (int) Cudart.EVENT_RECORD.invokeExact(event, stream.handle());
        if (status == 0) {
          return new CudaTransfer(path, ops.totalBytes(), ops.size(), started, event, null);
        }
        call = "cudaEventRecord";
        destroy(event);
      }
      CudaError error = CudaError.of(call, status);
      stream.synchronize(); // the batch may not be tracked, so it is waited for here
      return ended(path, ops, started, failure(path, error, "cannot track the batch", -1));
    } catch (Throwable t) {
      throw Calls.rethrow(t);
    }
  }

  @Override
  public synchronized Optional<TransferResult> poll() {
    if (result == null) {
      try {
        int status = (int) Cudart.EVENT_QUERY.invokeExact(event);
        if (status == CudaStatus.NOT_READY) {
          return Optional.empty();
        }
        result = status == 0
            ? new TransferResult.Completed(bytes, ops, System.nanoTime() - started, path)
            : failure(path, CudaError.of("cudaEventQuery", status), "the batch of " + ops
                + " ops (" + bytes + " bytes) failed on the GPU", -1);
        destroy(event);
        event = 0;
      } catch (Throwable t) {
        throw Calls.rethrow(t);
      }
    }
    return Optional.of(result);
  }

  /** The copies cannot be cancelled; the event is released (CUDA defers it until they finish). */
  @Override
  public synchronized void abandon() {
    if (event != 0) {
      destroy(event);
      event = 0;
    }
  }

  private static CudaTransfer ended(String path, TransferOps ops, long started,
      TransferResult result) {
    return new CudaTransfer(path, ops.totalBytes(), ops.size(), started, 0, result);
  }

  private static TransferResult.Failed failure(String path, CudaError error, String what, int op) {
    return new TransferResult.Failed(TransferFailure.TRANSPORT_ERROR, what + ": " + error.describe(),
        error.code(), error.nativeMessage(), op, path);
  }

  private static void destroy(long event) {
    try {
      int status = (int) Cudart.EVENT_DESTROY.invokeExact(event);
      if (status != 0) {
        CudaError error = CudaError.of("cudaEventDestroy", status);
        throw EngineException.nativeCallFailed(error.call(), error.code(),
            error.nativeMessage(), "transfer event");
      }
    } catch (Throwable t) {
      throw Calls.rethrow(t);
    }
  }
}
