package io.kvfleet.events;

import static java.util.Objects.requireNonNull;

import java.util.List;

/**
 * What one engine backend on a node can do, as probed at start.
 *
 * @param backend backend name ({@code ucx}, {@code cuda}, {@code host})
 * @param available whether the backend loaded and initialised
 * @param version library version, empty when unknown
 * @param memoryTypes the memory types it can register
 * @param transports the transports it offers (e.g. {@code tcp}, {@code sysv}, {@code cuda_ipc})
 * @param detail why it is unavailable or limited (e.g. "libucp.so.0 not found"); empty when fine
 */
public record BackendCapability(
    String backend,
    boolean available,
    String version,
    List<MemoryType> memoryTypes,
    List<String> transports,
    String detail) {
  public BackendCapability {
    requireNonNull(backend, "backend must not be null");
    requireNonNull(version, "version must not be null (use \"\")");
    memoryTypes = List.copyOf(requireNonNull(memoryTypes, "memoryTypes must not be null"));
    transports = List.copyOf(requireNonNull(transports, "transports must not be null"));
    requireNonNull(detail, "detail must not be null (use \"\")");
  }
}
