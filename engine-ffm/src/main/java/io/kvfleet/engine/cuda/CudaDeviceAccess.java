package io.kvfleet.engine.cuda;

import io.kvfleet.engine.DeviceAccess;
import io.kvfleet.engine.RegionRequest;
import java.util.Optional;

/** CUDA behind the engine's {@link DeviceAccess}: pinned buffers, {@code cudaMemcpy}, {@code cudaMalloc}, IPC import. */
public final class CudaDeviceAccess implements DeviceAccess {
  private static final String IPC_PREFIX = "cuda-ipc:";

  /** For {@link java.util.ServiceLoader}: touches no native library until asked. */
  public CudaDeviceAccess() {}

  @Override
  public String backend() {
    return CudaBackend.NAME;
  }

  @Override
  public String runtime() {
    return "CUDA";
  }

  @Override
  public Optional<String> unavailable() {
    Optional<String> missing = Cuda.libraryError();
    if (missing.isPresent()) {
      return missing;
    }
    CudaProbe probe = Cuda.probe();
    return probe.usable() ? Optional.empty() : Optional.of(probe.summary());
  }

  @Override
  public Buffer allocatePinnedHost(long length) {
    var memory = PinnedHostMemory.allocate(length);
    return new Buffer(memory.address(), memory.length(), memory::close);
  }

  @Override
  public Buffer allocateDevice(int device, long length) {
    var memory = DeviceMemory.allocate(device, length);
    return new Buffer(memory.address(), memory.length(), memory::close);
  }

  @Override
  public Optional<CopyFailure> copy(long destination, long source, long length) {
    return CudaCopy.copy(destination, source, length).map(e -> new CopyFailure(e.code(), e.describe()));
  }

  @Override
  public String handlePrefix() {
    return IPC_PREFIX;
  }

  @Override
  public String handleHelp() {
    return "send the handle cudaIpcGetMemHandle gave the worker, base64-encoded, as " + IPC_PREFIX + "<base64>";
  }

  @Override
  public RegionRequest importHandle(String regionId, int device, String encoded, long length) {
    return IpcHandle.fromBase64(encoded).request(regionId, device, length);
  }
}
