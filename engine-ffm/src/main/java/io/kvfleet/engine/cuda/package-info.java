/**
 * The CUDA backend, bound to libcudart (CUDA 12 or 13) through FFM, and the building blocks for
 * moving device memory.
 *
 * <p>{@link io.kvfleet.engine.cuda.CudaBackendProvider} plugs into the engine: it checks every
 * VRAM region before any backend sees it ({@code cudaPointerGetAttributes}: device memory, on the
 * named device, the whole length inside one allocation), registers device memory by address or
 * from a worker's {@link io.kvfleet.engine.cuda.IpcHandle}, and copies device to device within a
 * host ({@code cuda/d2d}, {@code cuda/d2d+ipc}). A node without libcudart lists the backend as
 * unavailable; a node without a driver or GPU opens it with no memory types, and every VRAM
 * registration fails with the CUDA error's name, code and message and a remedy.
 *
 * <p>For peers whose transport cannot register VRAM, {@link io.kvfleet.engine.cuda.StagedWrite}
 * bounces through pinned host memory ({@link io.kvfleet.engine.cuda.PinnedHostMemory}, {@link
 * io.kvfleet.engine.cuda.HostPin}) and any engine transport ({@code cuda/staged+ucx/tcp}).
 */
package io.kvfleet.engine.cuda;
