/**
 * Native plumbing shared by the engine and its backends: libc bindings (bound once, errno
 * captured), the one {@code Calls} that turns what a downcall throws unchecked, host-memory checks,
 * shared-memory mappings. Not for other modules.
 */
package io.kvfleet.engine.internal;
