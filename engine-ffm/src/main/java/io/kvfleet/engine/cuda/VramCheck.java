package io.kvfleet.engine.cuda;

import io.kvfleet.engine.Diagnosis;
import io.kvfleet.engine.RegionLocation;
import io.kvfleet.engine.RegionRequest;
import io.kvfleet.engine.RegistrationFailure;
import io.kvfleet.engine.cuda.internal.CudaLayouts;
import io.kvfleet.engine.internal.Hex;
import java.util.Optional;

/**
 * Checks a VRAM region before any backend sees it: the GPU must be usable, the pointer must be
 * device memory of the named device, and the whole length must lie inside its allocation. UCX
 * would register a host pointer labelled VRAM without a word, so this runs for every backend.
 */
final class VramCheck {
  private VramCheck() {}

  static final String INVALID_POINTER_REMEDIATION = "pass the address and length of one live"
      + " cudaMalloc allocation on the named device (a tensor's data_ptr() and nbytes), or hand"
      + " the agent a CUDA IPC handle; host and managed memory register as DRAM";

  static Optional<Diagnosis> problemWith(RegionRequest request, long address, CudaProbe probe) {
    String where = where(request, address);
    if (!probe.usable()) {
      return Optional.of(unusable(where, request, address, probe));
    }
    if (request.device() >= 0) {
      Optional<CudaError> missing = CudaDevice.select(request.device());
      if (missing.isPresent()) {
        return Optional.of(CudaFailures.diagnosis(where + ": device " + request.device()
            + " is not present (" + probe.summary() + ")", missing.get(), probe.runtimeVersion(),
            probe.driverVersion()));
      }
    }
    if (request.location() instanceof RegionLocation.DeviceHandle handle) {
      return handle.handle().length == CudaLayouts.IPC_HANDLE_SIZE
          ? Optional.empty()
          : Optional.of(Diagnosis.of(RegistrationFailure.INVALID_ADDRESS, where + ": a CUDA IPC"
              + " handle is " + CudaLayouts.IPC_HANDLE_SIZE + " bytes, this one is "
              + handle.handle().length));
    }
    return pointerProblem(where, request, address);
  }

  /** Why {@code [address, address + length)} is not one device allocation on the named device. */
  static Optional<Diagnosis> pointerProblem(String where, RegionRequest request, long address) {
    CudaResult<PointerInfo> first = PointerInfo.query(address);
    if (!first.succeeded()) {
      return Optional.of(invalid(where + ": invalid device pointer", first.error()));
    }
    PointerInfo info = first.value();
    if (!info.isDevice()) {
      return Optional.of(invalid(where + ": invalid device pointer: " + info.typeName()
          + ", not device memory; attributes found: " + info.describe()));
    }
    if (request.device() >= 0 && info.device() != request.device()) {
      return Optional.of(invalid(where + ": invalid device pointer: it lives on device "
          + info.device() + ", the request names device " + request.device()
          + "; attributes found: " + info.describe()));
    }
    long end = address + request.length();
    if (info.rangeKnown()) {
      long allocationEnd = info.allocationBase() + info.allocationSize();
      return end - allocationEnd > 0
          ? Optional.of(invalid(where + ": invalid device pointer: the range runs "
              + (end - allocationEnd) + " bytes past its allocation; attributes found: "
              + info.describe()))
          : Optional.empty();
    }
    CudaResult<PointerInfo> last = PointerInfo.query(end - 1);
    if (!last.succeeded() || !last.value().isDevice() || last.value().device() != info.device()) {
      return Optional.of(invalid(where + ": invalid device pointer: its last byte "
          + Hex.address(end - 1) + " is not device memory of device " + info.device()
          + " (" + (last.succeeded() ? last.value().describe() : last.error().describe())
          + "; the allocation range is unknown without libcuda.so.1, so only the first and last"
          + " bytes were checked); attributes of the first byte: " + info.describe()));
    }
    return Optional.empty();
  }

  /** The GPU cannot be used: a live call for this region gives the CUDA error of record. */
  private static Diagnosis unusable(String where, RegionRequest request, long address,
      CudaProbe probe) {
    Optional<CudaError> live = request.location() instanceof RegionLocation.Address
        ? Optional.ofNullable(PointerInfo.query(address).error())
        : CudaDevice.select(Math.max(0, request.device()));
    Optional<CudaError> error = live.or(probe::error);
    String detail = where + ": the cuda backend cannot use GPU " + Math.max(0, request.device())
        + ": " + error.map(CudaError::describe).orElse("no CUDA device is visible")
        + " (" + probe.library() + ", " + probe.version() + ")";
    return new Diagnosis(RegistrationFailure.DEVICE_UNAVAILABLE, detail,
        error.map(CudaError::code).orElse(0), error.map(CudaError::nativeMessage).orElse(""),
        CudaFailures.remediation(error, probe.runtimeVersion(), probe.driverVersion()));
  }

  private static Diagnosis invalid(String detail, CudaError error) {
    return new Diagnosis(RegistrationFailure.INVALID_ADDRESS, detail + ": " + error.describe(),
        error.code(), error.nativeMessage(), INVALID_POINTER_REMEDIATION);
  }

  private static Diagnosis invalid(String detail) {
    return Diagnosis.of(RegistrationFailure.INVALID_ADDRESS, detail)
        .withRemediation(INVALID_POINTER_REMEDIATION);
  }

  /** {@code state-L3 (VRAM on device 0 at 0x7f00+4096, checked by the cuda backend)}. */
  static String where(RegionRequest request, long address) {
    String at = request.location() instanceof RegionLocation.DeviceHandle
        ? "from a CUDA IPC handle, length " + request.length()
        : "at " + Hex.range(address, request.length());
    return request.regionId() + " (VRAM on device " + request.device() + " " + at
        + ", checked by the cuda backend)";
  }
}
