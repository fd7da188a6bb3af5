package io.kvfleet.engine.ucx.internal;

import io.kvfleet.engine.internal.Libc;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.util.Optional;

/**
 * Finds libucp once per process. The name comes from {@code -Dkvfleet.ucx.library}, else {@code
 * KVFLEET_UCX_LIBRARY}, else {@code libucp.so.0}; a missing library is recorded, not thrown, so the
 * node can start without UCX and say why.
 *
 * <p>Before the library loads (its constructor reads UCX's environment) this sets, unless the
 * operator already did: {@code UCX_ERROR_SIGNALS=""} so that UCX does not replace the JVM's SIGSEGV
 * and SIGBUS handlers (the JVM uses them for null checks and safepoints), and {@code
 * UCX_WARN_UNUSED_ENV_VARS=n}.
 */
@SuppressWarnings("restricted") // FFM by design: native addresses from libc and UCX
public final class UcpLibrary {
  private UcpLibrary() {}

  /** Debian's libucx0 soname. */
  public static final String DEFAULT_NAME = "libucp.so.0";

  private static final String NAME = chooseName();
  private static final SymbolLookup LOOKUP;
  private static final String LOAD_ERROR;

  static {
    SymbolLookup lookup = null;
    String error = null;
    try {
      Libc.setenvIfAbsent("UCX_ERROR_SIGNALS", "");
      Libc.setenvIfAbsent("UCX_WARN_UNUSED_ENV_VARS", "n");
      lookup = SymbolLookup.libraryLookup(NAME, Arena.global());
    } catch (IllegalArgumentException e) {
      error = NAME + " not found (" + e.getMessage() + ")";
    }
    LOOKUP = lookup;
    LOAD_ERROR = error;
  }

  /** The library name this process tried. */
  public static String name() {
    return NAME;
  }

  /** Why the library is not loaded, or empty when it is. */
  public static Optional<String> loadError() {
    return Optional.ofNullable(LOAD_ERROR);
  }

  static MethodHandle bind(String symbol, FunctionDescriptor descriptor, Linker.Option... options) {
    if (LOOKUP == null) {
      throw new IllegalStateException("libucp is not loaded: " + LOAD_ERROR);
    }
    MemorySegment address = LOOKUP.find(symbol)
        .orElseThrow(() -> new UnsatisfiedLinkError(NAME + " has no symbol " + symbol));
    return Linker.nativeLinker().downcallHandle(address, descriptor, options);
  }

  private static String chooseName() {
    String property = System.getProperty("kvfleet.ucx.library");
    if (property != null && !property.isBlank()) {
      return property;
    }
    String env = System.getenv("KVFLEET_UCX_LIBRARY");
    return env != null && !env.isBlank() ? env : DEFAULT_NAME;
  }
}
