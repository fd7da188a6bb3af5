/**
 * A fleet state's bytes: its canonical hash ({@link io.kvfleet.events.snapshot.StateHash}) and
 * its binary snapshot ({@link io.kvfleet.events.snapshot.StateSnapshot}), which is trusted only if
 * it rebuilds a state with the hash it was written with, or, where a CRC-32C and the snapshot's
 * origin vouch for its bytes, if it passes the reader's checks and the CRC (no walk for the hash). This package reads the fold's state
 * through {@link io.kvfleet.events.state.StateImage}; the fold knows nothing of it.
 */
package io.kvfleet.events.snapshot;
