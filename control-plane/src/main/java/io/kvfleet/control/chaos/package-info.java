/**
 * The fault suite: a fleet of real OS processes on loopback (brokers, coordinators, node agents),
 * a router under load, faults injected at the worst moments (SIGKILL, SIGSTOP, poison records), and
 * a verdict read back from the log: every request ends exactly once, no byte moves after a failure
 * was published, no event is lost or duplicated, every poison record is dead-lettered.
 */
package io.kvfleet.control.chaos;
