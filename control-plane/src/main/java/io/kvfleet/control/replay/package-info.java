/**
 * Postmortem I/O: the export file format (zstd or gzip JSON Lines, every record with its topic, partition,
 * offset, timestamp, key and headers), reading the fleet topics from Kafka in replay order, reading
 * an export back, running a replay over either, and checking a coordinator's snapshot file against
a replay (the files themselves are {@code io.kvfleet.control.coordinator.SnapshotStore}'s). The replay
 * itself (fold, timeline, anomalies, explanations) is {@code io.kvfleet.events.replay}.
 */
package io.kvfleet.control.replay;
