/**
 * Fleet state as a pure fold of the event log: {@link io.kvfleet.events.state.FleetState#apply}
 * is the only way state changes, it reads time only from envelopes, and it records an
 * {@link io.kvfleet.events.state.Violation} instead of throwing when the log breaks an invariant.
 * The coordinator runs this fold live; replay runs the same fold over a stored log.
 */
package io.kvfleet.events.state;
