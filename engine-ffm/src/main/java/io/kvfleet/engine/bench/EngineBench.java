package io.kvfleet.engine.bench;

import io.kvfleet.engine.Capability;
import io.kvfleet.engine.Engine;
import io.kvfleet.engine.EngineConfig;
import io.kvfleet.engine.HostMemory;
import io.kvfleet.engine.Peer;
import io.kvfleet.engine.RegionRequest;
import io.kvfleet.engine.Registration;
import io.kvfleet.engine.RemoteRegion;
import io.kvfleet.engine.bench.BenchOptions.Transport;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code kvfleet bench engine}: WRITE bandwidth and per-op latency from this JVM into a child
 * JVM's UCX-allocated region (as ucx_perftest allocates its buffers), per transport set and size,
 * plus a KV-page pattern, then ucx_perftest {@code ucp_put_bw} with the same UCX_TLS, sizes and
 * iterations. The child spins on its worker like ucx_perftest's server; the two never run at the
 * same time. Each row keeps the best of {@code repeats} runs on both sides.
 */
public final class EngineBench {
  private EngineBench() {}

  /** Runs the benchmark, prints progress and the table to {@code out}, returns the rows. */
  public static List<BenchRow> run(BenchOptions options, PrintStream out) {
    StringBuilder problems = new StringBuilder();
    List<BenchRow> rows = new ArrayList<>();
    Measurement[] reference = new Measurement[1];
    for (Transport transport : options.transports()) {
      rows.addAll(runTransport(options, transport, out, problems, reference));
    }
    out.println();
    out.println(BenchRow.header());
    rows.forEach(row -> out.println(row.line()));
    if (reference[0] != null) {
      out.printf(java.util.Locale.ROOT, "%nKV-page reference: one process copying the same %s"
          + " with memcpy (best of the runs above): %.0f MiB/s (%.3f us/page). ucx_perftest has no"
          + " scattered-page mode: its 16 KiB figure rewrites one cache-resident buffer.%n",
          Workload.kvPages(options.kvPages(), options.kvPageSize(), 1).name(),
          reference[0].mebibytesPerSecond(), reference[0].microsPerOp());
    }
    if (!problems.isEmpty()) {
      out.println();
      out.println("Problems:");
      out.print(problems);
    }
    return rows;
  }

  /**
   * Alternates the two sides, one run of every workload each, {@code repeats} times, and keeps
   * each side's best: load from elsewhere on the machine then hits both alike.
   */
  private static List<BenchRow> runTransport(BenchOptions options, Transport transport,
      PrintStream out, StringBuilder problems, Measurement[] reference) {
    List<Workload> workloads = workloads(options, transport);
    Measurement[] ours = new Measurement[workloads.size()];
    Measurement[] theirs = new Measurement[workloads.size()];
    long[] latency = new long[workloads.size()];
    String path = "";
    PerftestRunner perftest = new PerftestRunner(options.perftestBinary());
    for (int run = 1; run <= options.repeats(); run++) {
      out.printf("%s (UCX_TLS=%s), run %d of %d%n", transport.label(), transport.tls(), run,
          options.repeats());
      Optional<String> ran = runOurs(transport, workloads, ours, latency, out, problems);
      if (ran.isEmpty()) {
        return List.of();
      }
      path = ran.get();
      for (int i = 0; options.perftest() && i < workloads.size(); i++) {
        Workload workload = workloads.get(i);
        Optional<Measurement> measured = perftest.putBandwidth(transport.tls(), workload.size(),
            workload.ops(), problems);
        measured.ifPresent(m -> print(out, "ucx_perftest -s " + workload.size(), m));
        theirs[i] = Measurement.best(theirs[i], measured.orElse(null));
      }
      Workload kv = workloads.getLast();
      reference[0] = Measurement.best(reference[0], KvReference.measure(kv.pages(), kv.size(), 4, 1));
    }
    List<BenchRow> rows = new ArrayList<>();
    for (int i = 0; i < workloads.size(); i++) {
      Workload workload = workloads.get(i);
      rows.add(new BenchRow(transport.label(), workload.name(), workload.size(), workload.perBatch(),
          path, ours[i], latency[i], theirs[i]));
    }
    return rows;
  }

  /** One run of every workload through a fresh child target; the peer's path, or empty. */
  private static Optional<String> runOurs(Transport transport, List<Workload> workloads,
      Measurement[] best, long[] latency, PrintStream out, StringBuilder problems) {
    EngineConfig config = EngineConfig.defaults().withName("bench-initiator").withBackends("ucx")
        .withUcxTransports(transport.tls());
    try (Engine engine = Engine.open(config)) {
      Capability ucx = engine.capability("ucx").orElseThrow();
      if (!ucx.available()) {
        problems.append("ucx is not available: ").append(ucx.detail()).append('\n');
        return Optional.empty();
      }
      long remoteBytes = workloads.stream().mapToLong(Workload::remoteBytes).max().orElseThrow();
      try (ChildTarget target = ChildTarget.start("ucx", remoteBytes, transport.tls(), true, Map.of())) {
        HostMemory local = engine.allocate("bench-source", remoteBytes);
        Patterns.fill(local.segment(), 1);
        Registration source = engine.register(RegionRequest.of(local)).registration("ucx")
            .orElseThrow();
        Peer peer = engine.connect(target.address());
        RemoteRegion remote = peer.attach(target.key());
        for (int i = 0; i < workloads.size(); i++) {
          Workload workload = workloads.get(i);
          Measurement measured = workload.run(peer, source, remote);
          long p50 = workload.pages().isEmpty()
              ? workload.latencyNanos(peer, source, remote, transport.bytesPerRow()) : 0;
          print(out, "kvfleet " + workload.name(), measured);
          best[i] = Measurement.best(best[i], measured);
          latency[i] = latency[i] == 0 || (p50 > 0 && p50 < latency[i]) ? p50 : latency[i];
        }
        return Optional.of(peer.path());
      }
    }
  }

  private static void print(PrintStream out, String what, Measurement measured) {
    out.printf("  %-40s %10.0f MiB/s %9.3f us/op%n", what, measured.mebibytesPerSecond(),
        measured.microsPerOp());
  }

  private static List<Workload> workloads(BenchOptions options, Transport transport) {
    List<Workload> workloads = new ArrayList<>();
    for (long size : options.sizes()) {
      long ops = Math.max(16, transport.bytesPerRow() / size);
      int perBatch = Math.clamp((8L << 20) / size, 1, 1024);
      workloads.add(Workload.sameRange(size, ops, perBatch));
    }
    workloads.add(Workload.kvPages(options.kvPages(), options.kvPageSize(), transport.kvBatches()));
    return workloads;
  }

  static String human(long bytes) {
    return bytes >= 1 << 20 && bytes % (1 << 20) == 0 ? (bytes >> 20) + " MiB"
        : bytes >= 1 << 10 && bytes % (1 << 10) == 0 ? (bytes >> 10) + " KiB"
        : bytes + " B";
  }
}
