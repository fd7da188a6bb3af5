/**
 * Native plumbing shared by the engine and its backends: libc bindings (bound once, errno
 * captured), host-memory checks, shared-memory mappings. Not for other modules.
 */
package io.kvfleet.engine.internal;
