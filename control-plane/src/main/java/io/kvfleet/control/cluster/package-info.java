/** Fleets of separate processes: the clustered Vert.x EventBus. */
package io.kvfleet.control.cluster;
