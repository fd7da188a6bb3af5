package io.kvfleet.engine.spi;

/** Host memory a backend allocated; closing it frees the memory. One owner: the engine. */
public interface BackendAllocation extends AutoCloseable {

  long address();

  long length();

  /** Frees the memory; idempotent. */
  @Override
  void close();
}
