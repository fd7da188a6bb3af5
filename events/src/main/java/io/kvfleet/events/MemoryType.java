package io.kvfleet.events;

/** Where a region's bytes live. */
public enum MemoryType {
  /** Host memory. */
  DRAM,
  /** GPU device memory. */
  VRAM
}
