/**
 * Raw CUDA bindings: the libcudart lookup (and the optional libcuda lookup for allocation ranges),
 * method handles bound once, struct layouts that a conformance test checks against the installed
 * {@code driver_types.h}, and the error codes with the runtime's own names and messages. Device
 * pointers, streams and events travel as {@code long}, like the UCX handles. Only {@code
 * io.kvfleet.engine.cuda} uses this package.
 */
package io.kvfleet.engine.cuda.internal;
