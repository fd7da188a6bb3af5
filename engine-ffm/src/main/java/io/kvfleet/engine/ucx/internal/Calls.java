package io.kvfleet.engine.ucx.internal;

/** Turns what {@code MethodHandle.invokeExact} may throw into an unchecked exception. */
public final class Calls {
  private Calls() {}

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
