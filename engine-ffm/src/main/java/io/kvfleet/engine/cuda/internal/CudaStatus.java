package io.kvfleet.engine.cuda.internal;

import io.kvfleet.engine.internal.Calls;
import java.lang.foreign.MemorySegment;
import java.util.Map;

/**
 * {@code cudaError_t} values the engine reacts to, and the runtime's own name and message for any
 * value ({@code cudaGetErrorName}, {@code cudaGetErrorString}); those two need no driver.
 */
public final class CudaStatus {
  private CudaStatus() {}

  public static final int SUCCESS = 0;
  public static final int INVALID_VALUE = 1;
  public static final int MEMORY_ALLOCATION = 2;
  public static final int INITIALIZATION_ERROR = 3;
  public static final int INVALID_DEVICE_POINTER = 17;
  public static final int STUB_LIBRARY = 34;
  public static final int INSUFFICIENT_DRIVER = 35;
  public static final int CALL_REQUIRES_NEWER_DRIVER = 36;
  public static final int DEVICES_UNAVAILABLE = 46;
  public static final int NO_DEVICE = 100;
  public static final int INVALID_DEVICE = 101;
  public static final int DEVICE_UNINITIALIZED = 201;
  public static final int INVALID_RESOURCE_HANDLE = 400;
  public static final int NOT_READY = 600;
  public static final int HOST_MEMORY_ALREADY_REGISTERED = 712;
  public static final int NOT_PERMITTED = 800;
  public static final int NOT_SUPPORTED = 801;
  public static final int SYSTEM_NOT_READY = 802;
  public static final int SYSTEM_DRIVER_MISMATCH = 803;
  public static final int COMPAT_NOT_SUPPORTED_ON_DEVICE = 804;

  /** Every value above by its C name, for the conformance test. */
  public static final Map<String, Integer> ALL = Map.ofEntries(
      Map.entry("cudaSuccess", SUCCESS),
      Map.entry("cudaErrorInvalidValue", INVALID_VALUE),
      Map.entry("cudaErrorMemoryAllocation", MEMORY_ALLOCATION),
      Map.entry("cudaErrorInitializationError", INITIALIZATION_ERROR),
      Map.entry("cudaErrorInvalidDevicePointer", INVALID_DEVICE_POINTER),
      Map.entry("cudaErrorStubLibrary", STUB_LIBRARY),
      Map.entry("cudaErrorInsufficientDriver", INSUFFICIENT_DRIVER),
      Map.entry("cudaErrorCallRequiresNewerDriver", CALL_REQUIRES_NEWER_DRIVER),
      Map.entry("cudaErrorDevicesUnavailable", DEVICES_UNAVAILABLE),
      Map.entry("cudaErrorNoDevice", NO_DEVICE),
      Map.entry("cudaErrorInvalidDevice", INVALID_DEVICE),
      Map.entry("cudaErrorDeviceUninitialized", DEVICE_UNINITIALIZED),
      Map.entry("cudaErrorInvalidResourceHandle", INVALID_RESOURCE_HANDLE),
      Map.entry("cudaErrorNotReady", NOT_READY),
      Map.entry("cudaErrorHostMemoryAlreadyRegistered", HOST_MEMORY_ALREADY_REGISTERED),
      Map.entry("cudaErrorNotPermitted", NOT_PERMITTED),
      Map.entry("cudaErrorNotSupported", NOT_SUPPORTED),
      Map.entry("cudaErrorSystemNotReady", SYSTEM_NOT_READY),
      Map.entry("cudaErrorSystemDriverMismatch", SYSTEM_DRIVER_MISMATCH),
      Map.entry("cudaErrorCompatNotSupportedOnDevice", COMPAT_NOT_SUPPORTED_ON_DEVICE));

  /** {@code cudaErrorInsufficientDriver}, from the runtime. */
  public static String name(int code) {
    try {
      return text((MemorySegment) Cudart.GET_ERROR_NAME.invokeExact(code), code);
    } catch (Throwable t) {
      throw Calls.rethrow(t);
    }
  }

  /** {@code CUDA driver version is insufficient for CUDA runtime version}, from the runtime. */
  public static String message(int code) {
    try {
      return text((MemorySegment) Cudart.GET_ERROR_STRING.invokeExact(code), code);
    } catch (Throwable t) {
      throw Calls.rethrow(t);
    }
  }

  /**
   * Returns and clears this thread's last error. A failed call leaves it set, and a later
   * {@code cudaGetLastError} would report it against an unrelated call, so each failure is cleared.
   */
  public static int clearLastError() {
    try {
      return (int) Cudart.GET_LAST_ERROR.invokeExact();
    } catch (Throwable t) {
      throw Calls.rethrow(t);
    }
  }

  private static String text(MemorySegment text, int code) {
    return text.equals(MemorySegment.NULL)
        ? "cudaError " + code
        : text.reinterpret(1024).getString(0);
  }
}
