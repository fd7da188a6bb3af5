/**
 * The backend SPI. A backend is found with {@link java.util.ServiceLoader} through a
 * {@link io.kvfleet.engine.spi.BackendProvider}; one whose native library is missing reports itself
 * unavailable with the reason instead of failing the node. The engine does the checks common to all
 * backends (null or empty entries, host-address validity, duplicates, transfer bounds) before it
 * calls a backend. A CUDA backend plugs in here as another provider: it can register VRAM and can
 * also validate VRAM regions for the other backends ({@link io.kvfleet.engine.spi.Backend#validates}).
 */
package io.kvfleet.engine.spi;
