/**
 * Postmortem I/O: the export file format (zstd or gzip JSON Lines, every record with its topic, partition,
 * offset, timestamp, key and headers), reading the fleet topics from Kafka in replay order, reading
 * an export back, running a replay over either, and the coordinator's snapshot files. The replay
 * itself (fold, timeline, anomalies, explanations) is {@code io.kvfleet.events.replay}.
 */
package io.kvfleet.control.replay;
