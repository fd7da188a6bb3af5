/**
 * A node's memory and transfer machinery, speaking in events: registration on the native engine
 * (or plain memory copies in one JVM), transfers, the staged path and its device copies. The one
 * control-plane package that uses {@code io.kvfleet.engine}, and only its public API.
 */
package io.kvfleet.control.dataplane;
