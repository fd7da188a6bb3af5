/**
 * Postmortem over a stored log, without I/O: {@link io.kvfleet.events.replay.Replay} folds records
 * in replay order with the same {@link io.kvfleet.events.state.FleetState} fold the coordinator
 * runs live, and observers beside the fold report the state at a moment, a timeline, anomalies
 * and the causal chain behind one transfer, region or node. Reading Kafka or files is the control
 * plane's job; this package only sees {@link io.kvfleet.events.replay.LogRecord}s.
 */
package io.kvfleet.events.replay;
