package io.kvfleet.engine.bench;

import java.util.Locale;

/**
 * One line of the table: kvfleet and ucx_perftest on the same transport set and size.
 *
 * @param transport the transport set label
 * @param workload what moved, e.g. {@code 64 KiB} or {@code KV 4096 x 16 KiB scattered}
 * @param size the message size ucx_perftest ran with
 * @param opsPerBatch kvfleet ops per batch (one flush per batch)
 * @param path the path kvfleet's peer reported
 * @param kvfleet kvfleet's best run
 * @param latencyNanos kvfleet's median one-op batch, post to remote completion; 0 when not measured
 * @param perftest ucx_perftest's best run, null when it did not run
 */
public record BenchRow(String transport, String workload, long size, int opsPerBatch, String path,
    Measurement kvfleet, long latencyNanos, Measurement perftest) {

  /** kvfleet's bandwidth over ucx_perftest's, NaN when there is no perftest figure. */
  public double ratio() {
    return perftest == null ? Double.NaN
        : kvfleet.mebibytesPerSecond() / perftest.mebibytesPerSecond();
  }

  static String header() {
    return "| transport | workload | ops/batch | kvfleet MiB/s | kvfleet us/op | kvfleet 1-op p50 us"
        + " | ucx_perftest MiB/s | ucx_perftest us/op | ratio |\n"
        + "|---|---|---:|---:|---:|---:|---:|---:|---:|";
  }

  String line() {
    return String.format(Locale.ROOT, "| %s (%s) | %s | %d | %.0f | %.3f | %s | %s | %s | %s |",
        transport, path, workload, opsPerBatch, kvfleet.mebibytesPerSecond(), kvfleet.microsPerOp(),
        latencyNanos == 0 ? "-" : String.format(Locale.ROOT, "%.1f", latencyNanos / 1e3),
        perftest == null ? "-" : String.format(Locale.ROOT, "%.0f", perftest.mebibytesPerSecond()),
        perftest == null ? "-" : String.format(Locale.ROOT, "%.3f", perftest.microsPerOp()),
        perftest == null ? "-" : String.format(Locale.ROOT, "%.2f", ratio()));
  }
}
