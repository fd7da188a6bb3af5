package io.kvfleet.engine.cuda;

import io.kvfleet.engine.Capability;
import io.kvfleet.engine.Diagnosis;
import io.kvfleet.engine.MemoryType;
import io.kvfleet.engine.RegionLocation;
import io.kvfleet.engine.RegionRequest;
import io.kvfleet.engine.RegistrationFailure;
import io.kvfleet.engine.spi.Backend;
import io.kvfleet.engine.spi.BackendAllocation;
import io.kvfleet.engine.spi.BackendPeer;
import io.kvfleet.engine.spi.RegisterResult;
import java.util.List;
import java.util.Optional;

/**
 * The cuda backend of one engine: checks every VRAM region for all backends, registers device
 * memory (by address, or from a worker's CUDA IPC handle) and copies device to device within this
 * host. Opened whenever libcudart loads, even without a driver or GPU: then it registers nothing,
 * its capability says why, and every VRAM registration fails with the CUDA error instead of
 * reaching a backend that would misread the pointer. Thread-safe; holds no native state itself.
 */
final class CudaBackend implements Backend {
  static final String NAME = "cuda";

  private final CudaProbe probe;
  private final CudaIdentity self = CudaIdentity.self();
  private final Capability capability;

  CudaBackend(CudaProbe probe) {
    this.probe = probe;
    this.capability = capability(probe);
  }

  static Capability capability(CudaProbe probe) {
    if (probe.usable()) {
      return new Capability(NAME, true, probe.version(), List.of(MemoryType.VRAM),
          List.of("cuda_copy", "cuda_ipc"), false, probe.summary());
    }
    return new Capability(NAME, true, probe.version(), List.of(), List.of(), false,
        probe.summary() + "; VRAM cannot be registered on this node. " + probe.remediation());
  }

  CudaProbe probe() {
    return probe;
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public Capability capability() {
    return capability;
  }

  @Override
  public boolean validates(MemoryType type) {
    return type == MemoryType.VRAM;
  }

  @Override
  public Optional<Diagnosis> validate(RegionRequest request, long address) {
    return VramCheck.problemWith(request, address, probe);
  }

  @Override
  public Optional<BackendAllocation> allocate(String name, long length) {
    return Optional.empty();
  }

  @Override
  public RegisterResult register(RegionRequest request, long address) {
    if (request.memoryType() != MemoryType.VRAM) {
      return new RegisterResult.Refused(Diagnosis.of(RegistrationFailure.MEMORY_TYPE_UNSUPPORTED,
          request.regionId() + ": the cuda backend registers VRAM only, not "
              + request.memoryType()).withRemediation("nothing to change for host memory: ucx"
              + " and host register it; the cuda backend takes VRAM"));
    }
    if (!probe.usable()) {
      return new RegisterResult.Refused(VramCheck.problemWith(request, address, probe).orElseThrow());
    }
    return request.location() instanceof RegionLocation.DeviceHandle handle
        ? CudaRegistrations.byHandle(self, request, handle.handle(), probe)
        : CudaRegistrations.byAddress(self, request, address, probe);
  }

  @Override
  public byte[] workerAddress() {
    return self.encode();
  }

  @Override
  public BackendPeer connect(byte[] remoteAddress) {
    return CudaPeer.connect(self, CudaIdentity.decode(remoteAddress), probe);
  }

  @Override
  public void close() {}
}
