/**
 * The language of kvfleet: the sealed event hierarchy, its envelope, wire names and topic
 * conventions. No I/O, no Vert.x, no native code.
 */
package io.kvfleet.events;
