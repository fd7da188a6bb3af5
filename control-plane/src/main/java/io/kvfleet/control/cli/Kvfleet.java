package io.kvfleet.control.cli;

import io.kvfleet.control.KvfleetException;
import io.kvfleet.control.StartupMarks;
import java.nio.file.Path;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code kvfleet} command line. */
@Command(
    name = "kvfleet",
    mixinStandardHelpOptions = true,
    version = "kvfleet 0.1.0",
    description = "Control plane for moving KV cache and model state across an LLM inference fleet.",
    subcommands = {DemoCommand.class, TailCommand.class, KafkaCommand.class, CoordinatorCommand.class,
        NodeCommand.class, BenchCommand.class, ChaosCommand.class,
        ExportCommand.class, ReplayCommand.class, ExplainCommand.class, KeysCommand.class, AotTrainCommand.class,
        CommandLine.HelpCommand.class})
public final class Kvfleet implements Runnable {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  public static void main(String[] args) {
    StartupMarks.mark("main");
    LogFile.init();
    System.exit(commandLine().execute(args));
  }

  /** The command line as {@code main} runs it: its converters and its handling of errors the user can act on. */
  public static CommandLine commandLine() {
    return new CommandLine(new Kvfleet())
        .registerConverter(java.time.Duration.class, new DurationConverter())
        .setExecutionExceptionHandler((error, commandLine, parseResult) -> {
          // Also when it comes wrapped, e.g. by a future that failed with it.
          for (Throwable t = error; t != null; t = t.getCause()) {
            if (t instanceof KvfleetException) {
              commandLine.getErr().println("kvfleet " + commandLine.getCommandName() + ": " + t.getMessage());
              return 2; // a situation the user can act on: the message says what, no stack trace
            }
          }
          throw error;
        });
  }

  @Override
  public void run() {
    spec.commandLine().usage(System.out);
  }

  /** Where Kafka's and Vert.x's logs go this run. */
  static Path logFile() {
    return LogFile.path();
  }
}
