/**
 * The node agent: joins, registers its node's buffers, heartbeats and runs dispatched transfers.
 * Orchestration only: the engine is reached through {@code dataplane}, the coordinator and other
 * agents through {@code protocol}.
 */
package io.kvfleet.control.agent;
