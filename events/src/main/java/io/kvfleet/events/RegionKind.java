package io.kvfleet.events;

/** What a registered region holds. */
public enum RegionKind {
  /** Paged KV cache. */
  KV,
  /** Hybrid-model state tensors (Mamba / linear attention). */
  STATE,
  /** Auxiliary buffers (metadata, output ids). */
  AUX
}
