package io.kvfleet.engine.internal;

/**
 * Turns what {@code MethodHandle.invokeExact} may throw into an unchecked exception: one for every
 * binding of the engine (libc, UCX, CUDA).
 */
public final class Calls {
  private Calls() {}

  /** Throws {@code t} as it is when unchecked, else wrapped; declared to return so callers can {@code throw} it. */
  public static RuntimeException rethrow(Throwable t) {
    if (t instanceof RuntimeException r) {
      throw r;
    }
    if (t instanceof Error e) {
      throw e;
    }
    throw new IllegalStateException("native call threw " + t, t);
  }
}
