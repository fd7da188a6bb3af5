/**
 * The coordinator: folds the log, validates and dispatches transfers, enforces deadlines and leases,
 * and keeps its snapshot files ({@link io.kvfleet.control.coordinator.SnapshotStore}), which replay
 * reads too; it uses nothing of {@code replay}, so {@code replay.bench} can drive a coordinator
 * without a package cycle.
 */
package io.kvfleet.control.coordinator;
