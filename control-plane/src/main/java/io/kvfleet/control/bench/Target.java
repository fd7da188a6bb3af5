package io.kvfleet.control.bench;

/** What the bench drives: a system that takes numbered requests and answers each one once. */
interface Target extends AutoCloseable {
  /** How the report names this system. */
  String name();

  /** Sends request {@code id} without waiting for its answer. */
  void send(long id);

  @Override
  void close();

  /** Hears a target's answers. */
  @FunctionalInterface
  interface Answers {
    /**
     * Request {@code id} was answered; {@code atNanos} is {@link System#nanoTime()} when the
     * answer was read, {@code ok} whether it succeeded.
     */
    void answered(long id, long atNanos, boolean ok);
  }
}
