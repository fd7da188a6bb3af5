package io.kvfleet.engine.cuda;

import io.kvfleet.engine.Diagnosis;
import io.kvfleet.engine.RegistrationFailure;
import io.kvfleet.engine.cuda.internal.CudaStatus;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/** Maps CUDA errors to the registration taxonomy and to what an operator should do. */
final class CudaFailures {
  private CudaFailures() {}

  private static final Path DRIVER_VERSION = Path.of("/proc/driver/nvidia/version");

  /** The taxonomy entry for a failed CUDA call. */
  static RegistrationFailure reason(CudaError error) {
    return switch (error.code()) {
      case CudaStatus.INSUFFICIENT_DRIVER, CudaStatus.CALL_REQUIRES_NEWER_DRIVER,
          CudaStatus.NO_DEVICE, CudaStatus.INVALID_DEVICE, CudaStatus.STUB_LIBRARY,
          CudaStatus.DEVICES_UNAVAILABLE, CudaStatus.INITIALIZATION_ERROR,
          CudaStatus.SYSTEM_NOT_READY, CudaStatus.SYSTEM_DRIVER_MISMATCH,
          CudaStatus.COMPAT_NOT_SUPPORTED_ON_DEVICE -> RegistrationFailure.DEVICE_UNAVAILABLE;
      case CudaStatus.MEMORY_ALLOCATION -> RegistrationFailure.OUT_OF_MEMORY;
      case CudaStatus.INVALID_VALUE, CudaStatus.INVALID_DEVICE_POINTER,
          CudaStatus.INVALID_RESOURCE_HANDLE -> RegistrationFailure.INVALID_ADDRESS;
      default -> RegistrationFailure.BACKEND_ERROR;
    };
  }

  /** A diagnosis for a failed call, with the CUDA name, code and message and a specific remedy. */
  static Diagnosis diagnosis(String detail, CudaError error, int runtimeVersion, int driverVersion) {
    return new Diagnosis(reason(error), detail + ": " + error.describe(), error.code(),
        error.nativeMessage(), remediation(Optional.of(error), runtimeVersion, driverVersion));
  }

  /** {@link #diagnosis(String, CudaError, int, int)} with the versions read now. */
  static Diagnosis diagnosis(String detail, CudaError error) {
    int[] versions = CudaProbe.versions();
    return diagnosis(detail, error, versions[0], versions[1]);
  }

  /** What to change, for the error (or for no error and no device). */
  static String remediation(Optional<CudaError> error, int runtimeVersion, int driverVersion) {
    int code = error.map(CudaError::code).orElse(CudaStatus.NO_DEVICE);
    return switch (code) {
      case CudaStatus.INSUFFICIENT_DRIVER, CudaStatus.CALL_REQUIRES_NEWER_DRIVER ->
          "install an NVIDIA driver that supports CUDA " + CudaProbe.cudaVersion(runtimeVersion)
              + " (" + minimumDriver(runtimeVersion) + "): " + driverState(driverVersion)
              + "; or point -Dkvfleet.cuda.library at a CUDA runtime the installed driver supports;"
              + " a node without a GPU can leave the cuda backend out of the engine configuration";
      case CudaStatus.NO_DEVICE -> "no GPU is visible to this process: check nvidia-smi,"
          + " CUDA_VISIBLE_DEVICES (" + env("CUDA_VISIBLE_DEVICES") + ") and the container's GPU"
          + " access (--gpus, the NVIDIA container toolkit)";
      case CudaStatus.INVALID_DEVICE -> "name a device ordinal this process sees (nvidia-smi -L;"
          + " ordinals follow CUDA_VISIBLE_DEVICES=" + env("CUDA_VISIBLE_DEVICES") + ")";
      case CudaStatus.STUB_LIBRARY -> "the CUDA toolkit's stub libcuda.so was loaded instead of the"
          + " driver's: remove its lib64/stubs directory from LD_LIBRARY_PATH";
      case CudaStatus.SYSTEM_DRIVER_MISMATCH -> "the NVIDIA kernel module and libcuda.so.1 are from"
          + " different driver versions: reload the module or reboot after the driver upgrade";
      case CudaStatus.COMPAT_NOT_SUPPORTED_ON_DEVICE -> "the CUDA forward-compatibility libraries"
          + " do not support this GPU: take cuda-compat off the library path or upgrade the driver";
      case CudaStatus.DEVICES_UNAVAILABLE -> "the GPU is busy or in exclusive-process compute mode:"
          + " check nvidia-smi -q -d COMPUTE and which process holds it";
      case CudaStatus.SYSTEM_NOT_READY -> "the GPU system is not ready: start nvidia-fabricmanager"
          + " on NVSwitch machines and check nvidia-smi";
      case CudaStatus.MEMORY_ALLOCATION -> "free device memory (nvidia-smi lists the processes"
          + " holding it) or use smaller buffers";
      default -> "check nvidia-smi and the kernel log (dmesg | grep -i nvrm) for driver errors;"
          + " if it persists, report it with the runtime and driver versions";
    };
  }

  /** The oldest Linux driver branch for a CUDA major version. */
  static String minimumDriver(int runtimeVersion) {
    return switch (runtimeVersion / 1000) {
      case 13 -> "driver R580 or newer";
      case 12 -> "driver R525 or newer";
      case 11 -> "driver R450 or newer";
      default -> "a driver for CUDA " + CudaProbe.cudaVersion(runtimeVersion);
    };
  }

  private static String driverState(int driverVersion) {
    if (driverVersion != 0) {
      return "the loaded driver supports CUDA " + CudaProbe.cudaVersion(driverVersion) + " only";
    }
    return Files.exists(DRIVER_VERSION)
        ? "the kernel module is loaded but libcuda.so.1 is not found"
        : "no NVIDIA driver is loaded (" + DRIVER_VERSION + " is absent, nvidia-smi finds none)";
  }

  private static String env(String name) {
    String value = System.getenv(name);
    return value == null ? "unset" : value;
  }
}
