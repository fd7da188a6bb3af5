package io.kvfleet.engine.cuda;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.util.Objects.requireNonNull;

import io.kvfleet.engine.cuda.internal.Cudart;
import io.kvfleet.engine.internal.Calls;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * What the CUDA runtime found on this node. A missing or too-old driver is a value here ({@link
 * #error()}), never an exception.
 *
 * @param library the libcudart that loaded, e.g. {@code libcudart.so.13}
 * @param runtimeVersion {@code cudaRuntimeGetVersion}, e.g. 13000
 * @param driverVersion {@code cudaDriverGetVersion}: the CUDA version the driver supports, 0 when
 *     no driver is loaded
 * @param devices the GPUs this process sees, in ordinal order
 * @param error the call that failed, when one did
 */
public record CudaProbe(
    String library,
    int runtimeVersion,
    int driverVersion,
    List<CudaDevice> devices,
    Optional<CudaError> error) {

  public CudaProbe {
    requireNonNull(library, "library must not be null");
    devices = List.copyOf(requireNonNull(devices, "devices must not be null"));
    requireNonNull(error, "error must not be null");
  }

  /** Whether device memory can be used: every call succeeded and at least one GPU is there. */
  public boolean usable() {
    return error.isEmpty() && !devices.isEmpty();
  }

  /** {@code runtime 13.0, driver 12.8} or {@code runtime 13.0, driver none}. */
  public String version() {
    return "runtime " + cudaVersion(runtimeVersion) + ", driver "
        + (driverVersion == 0 ? "none" : cudaVersion(driverVersion));
  }

  /** The devices, or why there are none, for a capability's detail. */
  public String summary() {
    if (usable()) {
      return devices.size() + (devices.size() == 1 ? " device: " : " devices: ")
          + devices.stream().map(CudaDevice::summary).collect(Collectors.joining("; "));
    }
    return "no usable GPU: " + error.map(CudaError::describe).orElse("no CUDA device is visible")
        + " (" + library + ", " + version() + ")";
  }

  /** What an operator should do when {@link #usable()} is false; empty when it is true. */
  public String remediation() {
    return usable() ? "" : CudaFailures.remediation(error, runtimeVersion, driverVersion);
  }

  /** {@code 13000} as {@code 13.0}. */
  public static String cudaVersion(int version) {
    return version / 1000 + "." + (version % 1000) / 10;
  }

  /** Asks the loaded runtime; the caller has checked {@link Cuda#libraryError()}. */
  static CudaProbe run() {
    String library = Cuda.library();
    CudaResult<Integer> runtime = version(Cudart.RUNTIME_GET_VERSION, "cudaRuntimeGetVersion");
    if (!runtime.succeeded()) {
      return new CudaProbe(library, 0, 0, List.of(), Optional.of(runtime.error()));
    }
    CudaResult<Integer> driver = version(Cudart.DRIVER_GET_VERSION, "cudaDriverGetVersion");
    if (!driver.succeeded()) {
      return new CudaProbe(library, runtime.value(), 0, List.of(), Optional.of(driver.error()));
    }
    CudaResult<Integer> count = version(Cudart.GET_DEVICE_COUNT, "cudaGetDeviceCount");
    List<CudaDevice> devices = new ArrayList<>();
    CudaError failed = count.error();
    for (int ordinal = 0; failed == null && ordinal < count.value(); ordinal++) {
      CudaResult<CudaDevice> device = CudaDevice.describe(ordinal);
      if (device.succeeded()) {
        devices.add(device.value());
      } else {
        failed = device.error();
      }
    }
    return new CudaProbe(library, runtime.value(), driver.value(), devices,
        Optional.ofNullable(failed));
  }

  /** The runtime and driver versions alone (0 for one that cannot be read); neither needs a GPU. */
  static int[] versions() {
    CudaResult<Integer> runtime = version(Cudart.RUNTIME_GET_VERSION, "cudaRuntimeGetVersion");
    CudaResult<Integer> driver = version(Cudart.DRIVER_GET_VERSION, "cudaDriverGetVersion");
    return new int[] {runtime.succeeded() ? runtime.value() : 0,
        driver.succeeded() ? driver.value() : 0};
  }

  /** Calls an {@code int*}-out function ({@code cudaRuntimeGetVersion} and alike). */
  private static CudaResult<Integer> version(MethodHandle function, String call) {
    try (var arena = Arena.ofConfined()) {
      MemorySegment out = arena.allocate(JAVA_INT);
      int status = (int) function.invokeExact(out);
      return status == 0
          ? CudaResult.of(out.get(JAVA_INT, 0))
          : CudaResult.failure(CudaError.of(call, status));
    } catch (Throwable t) {
      throw Calls.rethrow(t);
    }
  }
}
