/** The node agent: joins, registers its node's buffers, heartbeats and runs dispatched transfers. */
package io.kvfleet.control.agent;
