/**
 * The UCX backend (libucp, Debian's libucx0): one context with RMA, a target worker that peers
 * write into (served by a progress thread) and an initiator worker for this engine's own batches
 * (serialised by one lock). DRAM is registered with {@code ucp_mem_map}; VRAM only when the
 * context reports a CUDA memory type, because on a UCX without CUDA {@code ucp_mem_map} accepts a
 * "CUDA" pointer and treats it as host memory.
 */
package io.kvfleet.engine.ucx;
