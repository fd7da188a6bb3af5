package io.kvfleet.engine.spi;

/** A backend's live registration; closing it deregisters. One owner: the engine. */
public interface BackendRegion extends AutoCloseable {

  long address();

  long length();

  /** The backend's packed remote key (a UCX rkey buffer, the host backend's grant name and range). */
  byte[] packedKey();

  /** Deregisters; idempotent. */
  @Override
  void close();
}
