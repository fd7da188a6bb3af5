package io.kvfleet.control.cli;

import io.kvfleet.control.KvfleetException;
import io.kvfleet.control.dataplane.EngineBenchmark;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Option;
import picocli.CommandLine.TypeConversionException;

/**
 * {@code kvfleet bench engine}: the engine's WRITE bandwidth beside ucx_perftest's, as ratios. The
 * options are read here and handed to the engine's bench as a plain {@link EngineBenchmark.Request}
 * (the engine depends on the JDK only, and only the dataplane reaches it).
 */
@Command(name = "engine", mixinStandardHelpOptions = true,
    description = "WRITE bandwidth and per-op latency between two processes over UCX shared memory and TCP, "
        + "4 KiB to 4 MiB plus a scattered KV-page pattern, beside ucx_perftest (ucp_put_bw, same sizes and "
        + "UCX_TLS) in the same run; prints kvfleet / ucx_perftest per row.")
final class BenchEngineCommand implements Callable<Integer> {
  @Option(names = "--sizes", split = ",", paramLabel = "SIZE", converter = SizeConverter.class,
      description = "Message sizes of the bandwidth rows, e.g. 4k,64k,1m,4m (the default)")
  List<Long> sizes;

  @Option(names = "--transports", split = ",", paramLabel = "SET", converter = TransportConverter.class,
      description = "UCX transport sets: shm (posix,sysv,cma,self), tcp; default shm,tcp")
  List<String> transports;

  @Option(names = "--repeats", paramLabel = "N", description = "Runs per row, best kept, on both sides (default 3)")
  int repeats = EngineBenchmark.defaultRepeats();

  @Option(names = "--no-perftest", description = "Do not run ucx_perftest beside it")
  boolean noPerftest;

  @Option(names = "--perftest", paramLabel = "PATH", description = "The ucx_perftest to run (default: from PATH)")
  String perftest;

  @Option(names = "--quick",
      description = "An eighth of the bytes and one run (whatever --repeats says): a smoke test, not a measurement")
  boolean quick;

  @Override
  public Integer call() {
    return EngineBenchmark.run(options(), System.out) == 0 ? 1 : 0;
  }

  /** What the options ask for; a user error for what cannot be measured. */
  EngineBenchmark.Request options() {
    if (repeats < 1) {
      throw KvfleetException.badInput("--repeats must be at least 1, not " + repeats);
    }
    if (noPerftest && perftest != null) {
      throw KvfleetException.badInput("--no-perftest and --perftest " + perftest + " contradict each other");
    }
    return new EngineBenchmark.Request(sizes, transports, repeats, !noPerftest, perftest, quick);
  }

  /** {@code shm} or {@code tcp}. */
  static final class TransportConverter implements ITypeConverter<String> {
    @Override
    public String convert(String value) {
      if (!EngineBenchmark.TRANSPORTS.contains(value.trim())) {
        throw new TypeConversionException("unknown transport set '" + value + "' ("
            + String.join(", ", EngineBenchmark.TRANSPORTS) + ")");
      }
      return value.trim();
    }
  }
}
