package io.kvfleet.control.dataplane;

import java.util.Optional;

/**
 * The device half of the staged path: copies between device memory a transport cannot register
 * and host buffers it did register. The device runtime's ({@link DeviceStaging}: CUDA) on nodes
 * with a GPU; tests on machines without one use host copies, and say so in the path they report.
 */
public interface Staging {
  /** What the completion's path starts with, e.g. {@code cuda} for {@code cuda/staged+ucx/tcp}. */
  String name();

  /** Why this node cannot stage (no CUDA driver, no GPU), or empty when it can. */
  Optional<String> unavailable();

  /** A host buffer device copies can reach at full speed (pinned memory with CUDA). */
  Buffer allocate(long length);

  /** Copies {@code length} bytes from {@code source} to {@code destination}; empty on success. */
  Optional<CopyError> copy(long destination, long source, long length);

  /** A host buffer at {@code address} of {@code length} bytes; closing runs {@code free}. */
  record Buffer(long address, long length, Runnable free) implements AutoCloseable {
    @Override
    public void close() {
      free.run();
    }
  }

  /** A failed copy: the native code and the native library's own words. */
  record CopyError(long code, String message) {}
}
