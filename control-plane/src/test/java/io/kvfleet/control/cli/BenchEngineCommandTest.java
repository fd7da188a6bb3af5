package io.kvfleet.control.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.kvfleet.control.dataplane.EngineBenchmark;
import io.kvfleet.control.replay.Cli;
import io.kvfleet.engine.bench.BenchOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import picocli.CommandLine;

/** The bench's command line: picocli options handed to the engine's bench as a plain record. */
class BenchEngineCommandTest {

  private static BenchOptions parse(String... args) {
    var command = new BenchEngineCommand();
    new CommandLine(command).parseArgs(args);
    return EngineBenchmark.options(command.options());
  }

  @Test
  void defaultsToTheFourSizesOverSharedMemoryAndTcpWithPerftest() {
    BenchOptions options = parse();
    assertThat(options.sizes()).containsExactly(4096L, 65536L, 1L << 20, 4L << 20);
    assertThat(options.transports()).extracting(BenchOptions.Transport::tls)
        .containsExactly("posix,sysv,cma,self", "tcp");
    assertThat(options.perftest()).isTrue();
    assertThat(options).isEqualTo(BenchOptions.defaults());
  }

  @Test
  void readsSizesTransportsAndSwitches() {
    BenchOptions options = parse("--sizes", "8k,2m", "--transports", "tcp", "--repeats", "5", "--no-perftest");
    assertThat(options.sizes()).containsExactly(8192L, 2L << 20);
    assertThat(options.transports()).containsExactly(BenchOptions.TCP);
    assertThat(options.repeats()).isEqualTo(5);
    assertThat(options.perftest()).isFalse();
  }

  @Test
  void runsTheNamedPerftestAndAQuickRunOnceWithAnEighthOfTheBytes() {
    BenchOptions options = parse("--perftest", "/opt/ucx/bin/ucx_perftest", "--repeats", "5", "--quick");
    assertThat(options.perftest()).isTrue();
    assertThat(options.perftestBinary()).isEqualTo("/opt/ucx/bin/ucx_perftest");
    assertThat(options.repeats()).isEqualTo(1);
    assertThat(options.transports()).extracting(BenchOptions.Transport::bytesPerRow)
        .containsExactly(BenchOptions.SHM.bytesPerRow() / 8, BenchOptions.TCP.bytesPerRow() / 8);
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "bench engine --fast | Unknown option: '--fast'",
      "bench engine --sizes 4k,0 | '0' is not a size",
      "bench engine --sizes 4q | '4q' is not a size",
      "bench engine --transports shm,ib | unknown transport set 'ib' (shm, tcp)",
      "bench engine --repeats 0 | --repeats must be at least 1, not 0",
      "bench engine --no-perftest --perftest /x | --no-perftest and --perftest /x contradict each other"})
  void refusesWhatItCannotMeasureBeforeStartingAnything(String command, String message) {
    var run = Cli.run(command.split(" "));

    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err()).contains(message).doesNotContain("\tat ");
  }
}
