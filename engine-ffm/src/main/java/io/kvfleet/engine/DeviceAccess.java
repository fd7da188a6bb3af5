package io.kvfleet.engine;

import java.util.Optional;
import java.util.ServiceLoader;

/**
 * What a device runtime offers beside registration, for callers that must not know which runtime
 * it is: pinned host buffers and copies for the staged path, device memory, and the import of the
 * device handles workers send (CUDA's IPC handles today). Found with {@link #find()}; a backend
 * provides it through {@link ServiceLoader}.
 */
public interface DeviceAccess {
  /** The backend this runtime belongs to, as it names itself in {@link Capability#backend()}. */
  String backend();

  /** The runtime's name for messages, e.g. {@code CUDA}. */
  String runtime();

  /** Why this runtime cannot allocate or copy here (no library, no driver, no GPU), or empty when it can. */
  Optional<String> unavailable();

  /** A page-locked host buffer device copies reach at full speed; throws {@link EngineException} with why not. */
  Buffer allocatePinnedHost(long length);

  /** {@code length} bytes of device memory on {@code device}; throws {@link EngineException} with why not. */
  Buffer allocateDevice(int device, long length);

  /** Copies {@code length} bytes from {@code source} to {@code destination} and waits; empty on success. */
  Optional<CopyFailure> copy(long destination, long source, long length);

  /** What a device handle a worker sends starts with, e.g. {@code cuda-ipc:}. */
  String handlePrefix();

  /** What a worker whose handle was malformed should send instead. */
  String handleHelp();

  /**
   * A request to register {@code length} bytes of the allocation behind {@code encoded} (the handle
   * after its prefix); throws {@link EngineException} when it is malformed.
   */
  RegionRequest importHandle(String regionId, int device, String encoded, long length);

  /** The first device runtime on the class path, if any. */
  static Optional<DeviceAccess> find() {
    return ServiceLoader.load(DeviceAccess.class, DeviceAccess.class.getClassLoader()).findFirst();
  }

  /** Memory at {@code address} of {@code length} bytes; closing runs {@code free}. */
  record Buffer(long address, long length, Runnable free) implements AutoCloseable {
    @Override
    public void close() {
      free.run();
    }
  }

  /** A failed copy: the native code and the runtime's own words. */
  record CopyFailure(long code, String message) {}
}
