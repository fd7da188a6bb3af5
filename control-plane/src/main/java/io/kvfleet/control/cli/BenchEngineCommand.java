package io.kvfleet.control.cli;

import io.kvfleet.control.dataplane.EngineBenchmark;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Unmatched;

/** {@code kvfleet bench engine}: the engine's WRITE bandwidth beside ucx_perftest's, as ratios. */
@Command(name = "engine", mixinStandardHelpOptions = true,
    description = {"WRITE bandwidth and per-op latency between two processes over UCX shared memory and TCP, "
        + "4 KiB to 4 MiB plus a scattered KV-page pattern, beside ucx_perftest (ucp_put_bw, same sizes and "
        + "UCX_TLS) in the same run; prints kvfleet / ucx_perftest per row.",
        "Options: --sizes 4k,64k,1m,4m  --transports shm,tcp  --repeats N  --no-perftest  --perftest PATH  --quick"})
final class BenchEngineCommand implements Callable<Integer> {
  @Unmatched List<String> options = new ArrayList<>();

  @Override
  public Integer call() {
    return EngineBenchmark.run(options, System.out) == 0 ? 1 : 0;
  }
}
