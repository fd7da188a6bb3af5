/**
 * Operations: the coordinator's HTTP read API, its live event stream, the dashboard page, and the
 * Prometheus metrics of coordinators and node agents. Metric values are folded from the same
 * records the coordinator folds ({@link io.kvfleet.control.ops.FleetMetrics}), so a replay of the
 * log recomputes them.
 */
package io.kvfleet.control.ops;
