package io.kvfleet.engine.spi;

/** A peer's region imported into this process (an unpacked UCX rkey). Closing releases it. */
public interface BackendRemote extends AutoCloseable {

  /** Releases the imported key; idempotent. */
  @Override
  void close();
}
