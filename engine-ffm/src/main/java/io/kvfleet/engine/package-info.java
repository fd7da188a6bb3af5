/**
 * The engine's public API: open an {@link io.kvfleet.engine.Engine}, probe its backends, register
 * regions (outcomes are values, never exceptions for expected failures), export what a peer needs,
 * connect to peers and move batches of byte ranges between registered regions.
 *
 * <p>Nothing here knows about events, Kafka or Vert.x: the control plane maps these values to events.
 * Backends plug in through {@link io.kvfleet.engine.spi}; native bindings stay in {@code internal}
 * packages.
 */
package io.kvfleet.engine;
