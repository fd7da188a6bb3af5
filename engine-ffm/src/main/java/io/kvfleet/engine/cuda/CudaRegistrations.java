package io.kvfleet.engine.cuda;

import io.kvfleet.engine.Diagnosis;
import io.kvfleet.engine.RegionRequest;
import io.kvfleet.engine.RegistrationFailure;
import io.kvfleet.engine.cuda.internal.LibcudaLibrary;
import io.kvfleet.engine.internal.Hex;
import io.kvfleet.engine.spi.RegisterResult;

/** Registers device memory that passed {@link VramCheck}: by address, or from an IPC handle. */
final class CudaRegistrations {
  private CudaRegistrations() {}

  /**
   * Memory in this process: the key carries the allocation's IPC handle and the region's offset in
   * it, so that peers in other processes can open it; when either is unknown the key says why and
   * only this process's peers reach it.
   */
  static RegisterResult byAddress(CudaIdentity self, RegionRequest request, long address,
      CudaProbe probe) {
    CudaResult<PointerInfo> queried = PointerInfo.query(address);
    if (!queried.succeeded()) {
      return new RegisterResult.Refused(CudaFailures.diagnosis(
          VramCheck.where(request, address) + ": invalid device pointer", queried.error()));
    }
    PointerInfo info = queried.value();
    long base = info.rangeKnown() ? info.allocationBase() : address;
    String notExportable = "";
    byte[] handle = new byte[0];
    if (!info.rangeKnown()) {
      notExportable = "the allocation around " + Hex.address(address) + " is unknown ("
          + LibcudaLibrary.name() + " did not load), so a peer could not find the region in it";
    } else {
      CudaResult<IpcHandle> exported = CudaDevice.select(info.device())
          .<CudaResult<IpcHandle>>map(CudaResult::failure)
          .orElseGet(() -> IpcHandle.tryExport(base));
      if (exported.succeeded()) {
        handle = exported.value().bytes();
      } else {
        notExportable = exported.error().describe();
      }
    }
    CudaKey key = new CudaKey(self, busId(probe, info.device()), address - base, handle,
        notExportable);
    return new RegisterResult.Accepted(
        new CudaRegion(address, request.length(), info.device(), key.encode(), null));
  }

  /** Another process's memory: opened here, closed when the registration ends. */
  static RegisterResult byHandle(CudaIdentity self, RegionRequest request, byte[] handle,
      CudaProbe probe) {
    int device = Math.max(0, request.device());
    CudaResult<ImportedMemory> opened = ImportedMemory.tryOpen(handle, device);
    if (!opened.succeeded()) {
      return new RegisterResult.Refused(CudaFailures.diagnosis(VramCheck.where(request, 0)
          + ": cannot open the CUDA IPC handle on device " + device + " (has the exporting"
          + " process exited or freed the memory? a process cannot open its own handle)",
          opened.error(), probe.runtimeVersion(), probe.driverVersion()));
    }
    ImportedMemory memory = opened.value();
    CudaResult<PointerInfo> info = PointerInfo.query(memory.address());
    if (info.succeeded() && info.value().rangeKnown()
        && request.length() > info.value().allocationSize()) {
      memory.close();
      return new RegisterResult.Refused(Diagnosis.of(RegistrationFailure.INVALID_ADDRESS,
          VramCheck.where(request, 0) + ": invalid device pointer: the handle's allocation at "
              + Hex.range(memory.address(), info.value().allocationSize()) + " is shorter than "
              + request.length() + " bytes").withRemediation(VramCheck.INVALID_POINTER_REMEDIATION));
    }
    CudaKey key = new CudaKey(self, busId(probe, device), 0, handle, "");
    return new RegisterResult.Accepted(
        new CudaRegion(memory.address(), request.length(), device, key.encode(), memory));
  }

  private static String busId(CudaProbe probe, int device) {
    return device >= 0 && device < probe.devices().size()
        ? probe.devices().get(device).pciBusId()
        : "";
  }
}
