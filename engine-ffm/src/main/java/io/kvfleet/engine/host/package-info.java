/**
 * The host backend, libc only, for nodes without UCX: shared anonymous memory ({@code mmap}),
 * registration of any live host range, and transfers within one host by {@code
 * process_vm_writev}/{@code process_vm_readv} (a bad remote address is an EFAULT, never a crash).
 * Cross-host transfers are UCX's job; the capability says so.
 */
package io.kvfleet.engine.host;
