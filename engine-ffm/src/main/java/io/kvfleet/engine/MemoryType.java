package io.kvfleet.engine;

/** Where a region's bytes live. */
public enum MemoryType {
  /** Host memory. */
  DRAM,
  /** GPU device memory (CUDA). */
  VRAM
}
