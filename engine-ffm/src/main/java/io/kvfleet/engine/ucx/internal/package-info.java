/**
 * Raw libucp bindings: the library lookup, method handles bound once, and struct layouts that a
 * conformance test checks against the installed {@code ucp.h}. Opaque UCX handles ({@code
 * ucp_context_h}, {@code ucp_ep_h}, requests) travel as {@code long}: on x86-64 and aarch64 a
 * pointer and a 64-bit integer are passed alike, and it spares a segment per hot-path call. Only
 * {@code io.kvfleet.engine.ucx} uses this package.
 */
package io.kvfleet.engine.ucx.internal;
