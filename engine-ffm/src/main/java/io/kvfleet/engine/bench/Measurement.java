package io.kvfleet.engine.bench;

/** Bytes moved in a number of operations over a time. */
public record Measurement(long bytes, long ops, long nanos) {

  /** MiB/s, which is what ucx_perftest calls MB/s. */
  public double mebibytesPerSecond() {
    return bytes / (1024.0 * 1024.0) / (nanos / 1e9);
  }

  /** Microseconds per operation. */
  public double microsPerOp() {
    return nanos / 1e3 / ops;
  }

  /** The faster of two. */
  static Measurement best(Measurement a, Measurement b) {
    if (a == null) {
      return b;
    }
    return b == null || a.mebibytesPerSecond() >= b.mebibytesPerSecond() ? a : b;
  }
}
