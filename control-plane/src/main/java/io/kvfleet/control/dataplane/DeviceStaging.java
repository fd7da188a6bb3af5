package io.kvfleet.control.dataplane;

import io.kvfleet.engine.DeviceAccess;
import io.kvfleet.engine.Engine;
import io.kvfleet.engine.MemoryType;
import java.util.Locale;
import java.util.Optional;

/**
 * Staging with the node's device runtime, through the engine's {@link DeviceAccess}: pinned host
 * buffers and synchronous device copies ({@code cudaMallocHost} and {@code cudaMemcpy} with CUDA).
 */
final class DeviceStaging implements Staging {
  private final Optional<DeviceAccess> device;
  private final Optional<String> unavailable;

  /** Usable where the engine's device backend is: its runtime loads, a driver and a GPU answer. */
  DeviceStaging(Engine engine) {
    this(engine, DeviceAccess.find());
  }

  DeviceStaging(Engine engine, Optional<DeviceAccess> device) {
    this.device = device;
    this.unavailable = device.isEmpty()
        ? Optional.of("no device runtime on the class path can copy device memory here")
        : why(engine, device.get());
  }

  private static Optional<String> why(Engine engine, DeviceAccess device) {
    String cannot = device.runtime() + " cannot copy device memory here: ";
    var capability = engine.capability(device.backend());
    if (capability.isEmpty()) {
      return Optional.of(cannot + "the engine has no " + device.backend() + " backend ("
          + device.unavailable().orElse("left out of its configuration") + ")");
    }
    if (capability.get().available() && capability.get().supports(MemoryType.VRAM)) {
      return Optional.empty();
    }
    // The runtime's findings; the capability's detail adds its remediation, which the event carries apart.
    return Optional.of(cannot + device.unavailable().orElse(capability.get().detail()));
  }

  @Override
  public String name() {
    return device.map(DeviceAccess::backend).orElse("device").toLowerCase(Locale.ROOT);
  }

  @Override
  public Optional<String> unavailable() {
    return unavailable;
  }

  @Override
  public Buffer allocate(long length) {
    var memory = access().allocatePinnedHost(length);
    return new Buffer(memory.address(), memory.length(), memory::close);
  }

  @Override
  public Optional<CopyError> copy(long destination, long source, long length) {
    return access().copy(destination, source, length).map(e -> new CopyError(e.code(), e.message()));
  }

  private DeviceAccess access() {
    return device.orElseThrow(() -> new IllegalStateException(unavailable.orElse("no device runtime")));
  }
}
