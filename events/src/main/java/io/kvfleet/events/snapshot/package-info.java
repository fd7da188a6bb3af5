/**
 * A fleet state's bytes: its canonical hash ({@link io.kvfleet.events.snapshot.StateHash}) and
 * its binary snapshot ({@link io.kvfleet.events.snapshot.StateSnapshot}), which is trusted only if
 * it rebuilds a state with the hash it was written with. This package reads the fold's state
 * through {@link io.kvfleet.events.state.StateImage}; the fold knows nothing of it.
 */
package io.kvfleet.events.snapshot;
