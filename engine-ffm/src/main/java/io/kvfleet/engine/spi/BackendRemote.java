package io.kvfleet.engine.spi;

/** A peer's region imported into this process (an unpacked UCX rkey). Closing releases it. */
public interface BackendRemote extends AutoCloseable {

  /** Whether the peer refused this key (every batch through it fails): a caller attaches it again later. */
  default boolean refused() {
    return false;
  }

  /** Releases the imported key; idempotent. */
  @Override
  void close();
}
