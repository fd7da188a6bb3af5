/** The one-JVM demo fleet: coordinator, prefill and decode agents, and a router's workload. */
package io.kvfleet.control.demo;
