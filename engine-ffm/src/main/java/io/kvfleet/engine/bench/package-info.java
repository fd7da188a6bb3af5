/**
 * {@code kvfleet bench engine}: WRITE bandwidth and per-op latency between two processes, over
 * shared memory and over TCP, side by side with {@code ucx_perftest} (same sizes, same UCX_TLS).
 * The second process is a child JVM running {@link io.kvfleet.engine.bench.TargetProcess}, which
 * the two-process tests use as well.
 */
package io.kvfleet.engine.bench;
