/** The coordinator: folds the log, validates and dispatches transfers, enforces deadlines and leases. */
package io.kvfleet.control.coordinator;
