package io.kvfleet.engine.ucx;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import io.kvfleet.engine.EngineException;
import io.kvfleet.engine.internal.Calls;
import io.kvfleet.engine.internal.MemStream;
import io.kvfleet.engine.ucx.internal.Ucp;
import io.kvfleet.engine.ucx.internal.UcpLayouts;
import io.kvfleet.engine.ucx.internal.UcsStatus;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/** A {@code ucp_context_h}: one per engine, shared by its two workers. */
final class UcpContext implements AutoCloseable {
  private final long handle;
  private final String name;
  private boolean closed;

  private UcpContext(long handle, String name) {
    this.handle = handle;
    this.name = name;
  }

  /**
   * Initialises UCX with RMA and active messages (and wakeup when {@code wakeup}); {@code
   * transports} becomes UCX_TLS
   * for this context only when not empty.
   */
  static UcpContext create(String name, String transports, boolean wakeup) {
    return create(name, transports, "", wakeup);
  }

  /** {@link #create(String, String, boolean)}, with {@code netDevices} as UCX_NET_DEVICES when not empty. */
  static UcpContext create(String name, String transports, String netDevices, boolean wakeup) {
    try (var arena = Arena.ofConfined()) {
      long config = transports.isEmpty() && netDevices.isEmpty() ? 0 : readConfig(arena, transports, netDevices);
      try {
        MemorySegment params = arena.allocate(UcpLayouts.PARAMS);
        UcpLayouts.PARAMS_FIELD_MASK.set(params,
            Ucp.PARAM_FIELD_FEATURES | Ucp.PARAM_FIELD_MT_WORKERS_SHARED | Ucp.PARAM_FIELD_NAME);
        UcpLayouts.PARAMS_FEATURES.set(params,
            Ucp.FEATURE_RMA | Ucp.FEATURE_AM | (wakeup ? Ucp.FEATURE_WAKEUP : 0));
        UcpLayouts.PARAMS_MT_WORKERS_SHARED.set(params, 1);
        UcpLayouts.PARAMS_NAME.set(params, arena.allocateFrom(name));
        MemorySegment out = arena.allocate(JAVA_LONG);
        int status = (int) Ucp.INIT_VERSION.invokeExact(
            Ucp.API_MAJOR, Ucp.API_MINOR, params, config, out);
        check(status, "ucp_init_version", "context " + name
            + (transports.isEmpty() ? "" : " with UCX_TLS=" + transports));
        return new UcpContext(out.get(JAVA_LONG, 0), name);
      } finally {
        if (config != 0) {
          Ucp.CONFIG_RELEASE.invokeExact(config);
        }
      }
    } catch (Throwable t) {
      throw Calls.rethrow(t);
    }
  }

  private static long readConfig(Arena arena, String transports, String netDevices) throws Throwable {
    MemorySegment out = arena.allocate(ADDRESS);
    int status = (int) Ucp.CONFIG_READ.invokeExact(MemorySegment.NULL, MemorySegment.NULL, out);
    check(status, "ucp_config_read", "");
    long config = out.get(JAVA_LONG, 0);
    if (!transports.isEmpty()) {
      modify(arena, config, "TLS", transports);
    }
    if (!netDevices.isEmpty()) {
      modify(arena, config, "NET_DEVICES", netDevices);
    }
    return config;
  }

  private static void modify(Arena arena, long config, String key, String value) throws Throwable {
    int status = (int) Ucp.CONFIG_MODIFY.invokeExact(config, arena.allocateFrom(key), arena.allocateFrom(value));
    if (status != UcsStatus.OK) {
      Ucp.CONFIG_RELEASE.invokeExact(config);
      check(status, "ucp_config_modify", "UCX_" + key + "=" + value);
    }
  }

  long handle() {
    return handle;
  }

  String name() {
    return name;
  }

  /** The {@code ucs_memory_type_t} bits this context can register. */
  long memoryTypes() {
    try (var arena = Arena.ofConfined()) {
      MemorySegment attr = arena.allocate(UcpLayouts.CONTEXT_ATTR);
      UcpLayouts.CONTEXT_ATTR_FIELD_MASK.set(attr, Ucp.ATTR_FIELD_MEMORY_TYPES);
      int status = (int) Ucp.CONTEXT_QUERY.invokeExact(handle, attr);
      check(status, "ucp_context_query", "context " + name);
      return (long) UcpLayouts.CONTEXT_ATTR_MEMORY_TYPES.get(attr);
    } catch (Throwable t) {
      throw Calls.rethrow(t);
    }
  }

  /** {@code ucp_context_print_info}: components, memory domains and transport resources. */
  String info() {
    return MemStream.capture(file -> {
      try {
        Ucp.CONTEXT_PRINT_INFO.invokeExact(handle, file);
      } catch (Throwable t) {
        throw Calls.rethrow(t);
      }
    });
  }

  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    try {
      Ucp.CLEANUP.invokeExact(handle);
    } catch (Throwable t) {
      throw Calls.rethrow(t);
    }
  }

  /** Throws {@link EngineException} with the status name and UCX's message unless OK. */
  static void check(int status, String call, String context) {
    if (status != UcsStatus.OK) {
      throw EngineException.nativeCallFailed(call, status, UcsStatus.describe(status), context);
    }
  }
}
