/**
 * {@code kvfleet bench replay}: a synthetic fleet log of mixed events, and the measurements of
 * folding it from an export file, replaying it from Kafka beside a plain consumer reading the same
 * topics, and restarting a coordinator from a snapshot of it.
 */
package io.kvfleet.control.replay.bench;
