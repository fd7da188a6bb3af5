package io.kvfleet.engine.spi;

import io.kvfleet.engine.Capability;
import io.kvfleet.engine.Diagnosis;
import io.kvfleet.engine.MemoryType;
import io.kvfleet.engine.RegionRequest;
import java.util.Optional;

/**
 * One open backend of one engine. Calls come from any thread; a backend serialises what its
 * native library needs serialised. Expected failures are values ({@link RegisterResult.Refused});
 * exceptions are for misuse and native calls that must not fail.
 */
public interface Backend extends AutoCloseable {

  /** The provider's name. */
  String name();

  /** What it can do, probed once when it opened. */
  Capability capability();

  /** Whether it checks regions of {@code type} for every backend (a CUDA backend for VRAM). */
  default boolean validates(MemoryType type) {
    return false;
  }

  /** Why a region is unusable (e.g. not a device pointer), checked before any backend registers. */
  default Optional<Diagnosis> validate(RegionRequest request, long address) {
    return Optional.empty();
  }

  /**
   * Allocates host memory the backend reaches fastest (UCX: shared-memory segments its transports
   * map directly), or empty when it does not allocate. Throws {@link
   * io.kvfleet.engine.EngineException#allocationFailed} with a diagnosis when it cannot.
   */
  Optional<BackendAllocation> allocate(String name, long length);

  /**
   * Registers {@code [address, address + request.length())}. The engine has already refused null
   * and empty entries, checked host ranges and duplicates; the backend checks the memory type.
   */
  RegisterResult register(RegionRequest request, long address);

  /** The bytes a peer passes to {@link #connect}. */
  byte[] workerAddress();

  /** Connects to a peer's {@link #workerAddress()}; throws {@link io.kvfleet.engine.EngineException}. */
  BackendPeer connect(byte[] remoteAddress);

  /** Releases every native object; regions, allocations and peers are closed first by the engine. */
  @Override
  void close();
}
