/**
 * The host backend, libc only, for nodes without UCX: memory in shared-memory objects it allocates
 * ({@code /dev/shm/kvfleet-alloc-*}), registration of regions in those or in a worker's {@code
 * shm:} object as grants (unguessable hard links, {@code /dev/shm/kvfleet-grant-*}), and transfers
 * within one host by mapping a peer's grants ({@code docs/SECURITY.md}, "Memory"): a key names a
 * grant, never a pid or an address, and one that names anything else fails {@code NO_GRANT}.
 * Cross-host transfers are UCX's job; the capability says so.
 */
package io.kvfleet.engine.host;
