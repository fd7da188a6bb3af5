package io.kvfleet.engine.cuda.internal;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A shared library found by the first of several names that loads, or why none did. Loading is
 * recorded, never thrown, so a node without CUDA starts and says why.
 *
 * @param name the name that loaded, or every name tried when none did
 * @param lookup its symbols, null when none loaded
 * @param error why none loaded, null when one did
 */
public record NativeLibrary(String name, SymbolLookup lookup, String error) {

  /** Tries {@code names} in order; the first that loads stays loaded for the life of the process. */
  public static NativeLibrary load(List<String> names) {
    List<String> failures = new ArrayList<>();
    for (String candidate : names) {
      try {
        return new NativeLibrary(candidate, SymbolLookup.libraryLookup(candidate, Arena.global()), null);
      } catch (IllegalArgumentException e) {
        failures.add(e.getMessage());
      }
    }
    return new NativeLibrary(String.join(" or ", names), null,
        String.join(" or ", names) + " not found (" + String.join("; ", failures) + ")");
  }

  /** The names from a system property, else an environment variable (comma-separated), else the defaults. */
  public static List<String> names(String property, String environment, List<String> defaults) {
    String chosen = System.getProperty(property);
    if (chosen == null || chosen.isBlank()) {
      chosen = System.getenv(environment);
    }
    if (chosen == null || chosen.isBlank()) {
      return defaults;
    }
    return List.of(chosen.trim().split("\\s*,\\s*"));
  }

  public Optional<String> loadError() {
    return Optional.ofNullable(error);
  }

  /** Whether the library has {@code symbol}. */
  public boolean has(String symbol) {
    return lookup != null && lookup.find(symbol).isPresent();
  }

  /** A downcall handle to {@code symbol}; throws when the library is not loaded or lacks it. */
  public MethodHandle bind(String symbol, FunctionDescriptor descriptor, Linker.Option... options) {
    if (lookup == null) {
      throw new IllegalStateException("not loaded: " + error);
    }
    MemorySegment address = lookup.find(symbol)
        .orElseThrow(() -> new UnsatisfiedLinkError(name + " has no symbol " + symbol));
    return Linker.nativeLinker().downcallHandle(address, descriptor, options);
  }
}
