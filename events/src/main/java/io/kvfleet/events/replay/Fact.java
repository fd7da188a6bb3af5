package io.kvfleet.events.replay;

import io.kvfleet.events.FleetEvent;
import java.time.Instant;

/**
 * An event an explanation may cite: when its producer wrote it, where it is in the log, and its
 * number in replay order (which orders facts from different partitions).
 */
record Fact(long index, Instant time, LogPosition position, String producer, FleetEvent event) {}
