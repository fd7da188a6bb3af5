package io.kvfleet.engine.cuda;

import static java.util.Objects.requireNonNull;

import io.kvfleet.engine.cuda.internal.CudaStatus;
import java.util.Optional;

/**
 * A failed CUDA call, with the runtime's own name and message for its code.
 *
 * @param call the function, e.g. {@code cudaGetDeviceCount} or {@code cudaMemcpy(D2H)}
 * @param code the {@code cudaError_t} (or {@code CUresult} for driver-API calls)
 * @param name e.g. {@code cudaErrorInsufficientDriver}
 * @param message e.g. {@code CUDA driver version is insufficient for CUDA runtime version}
 */
public record CudaError(String call, int code, String name, String message) {

  public CudaError {
    requireNonNull(call, "call must not be null");
    requireNonNull(name, "name must not be null");
    requireNonNull(message, "message must not be null");
  }

  /** The runtime's name and message for {@code code}; clears this thread's last error. */
  static CudaError of(String call, int code) {
    CudaStatus.clearLastError();
    return new CudaError(call, code, CudaStatus.name(code), CudaStatus.message(code));
  }

  /** Empty on {@code cudaSuccess}, else the error. */
  static Optional<CudaError> check(String call, int status) {
    return status == CudaStatus.SUCCESS ? Optional.empty() : Optional.of(of(call, status));
  }

  /** {@code cudaErrorInsufficientDriver: CUDA driver version is ...}: the native message of events. */
  public String nativeMessage() {
    return name + ": " + message;
  }

  /** {@code cudaGetDeviceCount failed with cudaErrorInsufficientDriver (35): CUDA driver ...}. */
  public String describe() {
    return call + " failed with " + name + " (" + code + "): " + message;
  }

  @Override
  public String toString() {
    return describe();
  }
}
