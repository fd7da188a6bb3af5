package io.kvfleet.engine;

import io.kvfleet.engine.internal.Hex;

/**
 * Host memory another allocator made for registration (pinned staging buffers from the device
 * runtime), admitted by {@link Engine#admit}: it may be registered by address until closed. Memory
 * neither allocated by the engine nor admitted is refused {@link
 * RegistrationFailure#NOT_AGENT_MEMORY}.
 */
public final class Admission implements AutoCloseable {
  private final Engine engine;
  private final String name;
  private final long address;
  private final long length;

  Admission(Engine engine, String name, long address, long length) {
    this.engine = engine;
    this.name = name;
    this.address = address;
    this.length = length;
  }

  boolean covers(long from, long bytes) {
    return from >= address && bytes <= length && from - address <= length - bytes;
  }

  /** Withdraws it; regions registered in it stay registered until deregistered. Idempotent. */
  @Override
  public void close() {
    engine.withdraw(this);
  }

  @Override
  public String toString() {
    return "Admission[" + name + " at " + Hex.range(address, length) + "]";
  }
}
