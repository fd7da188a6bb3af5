package io.kvfleet.engine.cuda;

import io.kvfleet.engine.cuda.internal.CudaEnums;
import io.kvfleet.engine.cuda.internal.Cudart;
import io.kvfleet.engine.internal.Calls;
import io.kvfleet.engine.internal.Hex;
import java.util.Optional;

/**
 * Synchronous copies between any two of host, pinned host and device memory, the building blocks
 * of the staged path. CUDA infers the direction from the pointers ({@code cudaMemcpyDefault},
 * which needs unified addressing: every 64-bit platform CUDA 12 and 13 support). A failure is a
 * value.
 */
public final class CudaCopy {
  private CudaCopy() {}

  /** The legacy default stream, where plain {@code cudaMemcpy} and {@code cudaMemset} run. */
  private static final long LEGACY_DEFAULT_STREAM = 0;

  /**
   * Copies {@code length} bytes from {@code source} to {@code destination} and waits for it: a
   * device-to-device {@code cudaMemcpy} returns before the copy ends, so the legacy default stream
   * it ran on is synchronised too (which also reports an error of the copy itself).
   */
  public static Optional<CudaError> copy(long destination, long source, long length) {
    checkArguments(destination, source, length);
    Cuda.requireLibrary();
    String call = "cudaMemcpy(" + Hex.address(destination) + " <- " + Hex.range(source, length) + ")";
    try {
      int status = (int) Cudart.MEMCPY.invokeExact(destination, source, length,
          CudaEnums.MEMCPY_DEFAULT);
      if (status == 0) {
        status = (int) Cudart.STREAM_SYNCHRONIZE.invokeExact(LEGACY_DEFAULT_STREAM);
        call = "cudaStreamSynchronize after " + call;
      }
      return CudaError.check(call, status);
    } catch (Throwable t) {
      throw Calls.rethrow(t);
    }
  }

  /** Sets {@code length} bytes of device memory at {@code destination} to {@code value} and waits. */
  public static Optional<CudaError> fill(long destination, int value, long length) {
    checkArguments(destination, destination, length);
    Cuda.requireLibrary();
    try {
      int status = (int) Cudart.MEMSET.invokeExact(destination, value, length);
      if (status == 0) {
        status = (int) Cudart.STREAM_SYNCHRONIZE.invokeExact(LEGACY_DEFAULT_STREAM);
      }
      return CudaError.check("cudaMemset(" + Hex.range(destination, length) + ")", status);
    } catch (Throwable t) {
      throw Calls.rethrow(t);
    }
  }

  /** Rejects null pointers and empty lengths before any native call. */
  static void checkArguments(long destination, long source, long length) {
    if (destination == 0 || source == 0) {
      throw new IllegalArgumentException("null pointer: destination " + Hex.address(destination)
          + ", source " + Hex.address(source));
    }
    if (length <= 0) {
      throw new IllegalArgumentException("length must be positive: " + length);
    }
  }
}
