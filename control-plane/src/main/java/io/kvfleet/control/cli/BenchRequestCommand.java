package io.kvfleet.control.cli;

import io.kvfleet.control.bench.RequestBench;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code kvfleet bench request}: one request transfer per inference request against one transfer per buffer. */
@Command(name = "request", mixinStandardHelpOptions = true,
    description = "Inference requests of a hybrid model (61 layers x 16 pages of 16 KiB KV, conv and SSM state per "
        + "layer, aux) through a real fleet in this JVM (embedded broker, coordinator, two agents on the native "
        + "engine): as one request transfer each, and as one single-region transfer per buffer, alternating in "
        + "the same run; prints bytes per second and control-plane events per request, and their ratios.")
final class BenchRequestCommand implements Callable<Integer> {
  @Option(names = "--requests", defaultValue = "10", description = "Requests per side per round (default: ${DEFAULT-VALUE})")
  int requests;

  @Option(names = "--rounds", defaultValue = "3", description = "Rounds, each side once per round (default: ${DEFAULT-VALUE})")
  int rounds;

  @Override
  public Integer call() throws Exception {
    if (requests < 1 || rounds < 1) {
      throw io.kvfleet.control.KvfleetException.badInput("--requests and --rounds must be at least 1");
    }
    RequestBench.run(requests, rounds, System.out);
    return 0;
  }
}
