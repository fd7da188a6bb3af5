package io.kvfleet.control.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * {@code kvfleet bench}: benchmarks that run kvfleet and its reference side by side in one run and
 * print ratios (results and commands are kept in BENCHMARKS.md).
 */
@Command(name = "bench", mixinStandardHelpOptions = true,
    description = "Benchmarks, each beside its reference in the same run (see BENCHMARKS.md).",
    subcommands = {BenchEngineCommand.class, BenchFleetCommand.class, BenchReplayCommand.class,
        BenchRequestCommand.class, BenchStartupCommand.class, BenchTimeTravelCommand.class})
final class BenchCommand implements Runnable {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(System.out);
  }
}
