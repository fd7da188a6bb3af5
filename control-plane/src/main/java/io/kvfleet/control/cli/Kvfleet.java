package io.kvfleet.control.cli;

import io.kvfleet.control.KvfleetException;
import io.kvfleet.control.StartupMarks;
import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code kvfleet} command line. */
@Command(
    name = "kvfleet",
    mixinStandardHelpOptions = true,
    version = "kvfleet 0.1.0",
    description = "Control plane for moving KV cache and model state across an LLM inference fleet.")
public final class Kvfleet implements Runnable {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  /** The commands by name, in the order usage lists them. */
  private static final Map<String, Class<?>> COMMANDS = commands();

  public static void main(String[] args) {
    StartupMarks.mark("main");
    LogFile.init();
    io.kvfleet.control.console.Terminal.install(); // record strings reach the terminal: no escape sequence does
    System.exit(commandLine(args.length > 0 ? args[0] : "").execute(args));
  }

  /** The command line with every command: its converters and its handling of errors the user can act on. */
  public static CommandLine commandLine() {
    return commandLine("");
  }

  /**
   * {@link #commandLine()} holding only {@code first} when it names a command: picocli reflects over
   * every command it holds, and building all of them was 0.2 s idle and seconds under load of a start
   * that runs one. Any other first argument (an option, help, a wrong name) gets every command.
   */
  static CommandLine commandLine(String first) {
    var line = new CommandLine(new Kvfleet());
    boolean one = COMMANDS.containsKey(first) && !first.equals("help");
    COMMANDS.forEach((name, type) -> {
      if (!one || name.equals(first)) {
        line.addSubcommand(name, type);
      }
    });
    // After the commands: picocli gives a converter and a handler only to the commands it holds already.
    return line
        // No colours: every command's output goes through Terminal, which would print their escapes as text.
        .setColorScheme(CommandLine.Help.defaultColorScheme(CommandLine.Help.Ansi.OFF))
        .registerConverter(java.time.Duration.class, new DurationConverter())
        .setExecutionExceptionHandler((error, commandLine, parseResult) -> {
          // Also when it comes wrapped, e.g. by a future that failed with it.
          for (Throwable t = error; t != null; t = t.getCause()) {
            if (t instanceof KvfleetException) {
              // "kvfleet keys new", not "kvfleet new"
              commandLine.getErr().println(commandLine.getCommandSpec().qualifiedName() + ": " + t.getMessage());
              return 2; // a situation the user can act on: the message says what, no stack trace
            }
          }
          throw error;
        });
  }

  private static Map<String, Class<?>> commands() {
    var commands = new LinkedHashMap<String, Class<?>>();
    commands.put("demo", DemoCommand.class);
    commands.put("tail", TailCommand.class);
    commands.put("kafka", KafkaCommand.class);
    commands.put("coordinator", CoordinatorCommand.class);
    commands.put("node", NodeCommand.class);
    commands.put("request", RequestCommand.class);
    commands.put("bench", BenchCommand.class);
    commands.put("chaos", ChaosCommand.class);
    commands.put("export", ExportCommand.class);
    commands.put("replay", ReplayCommand.class);
    commands.put("explain", ExplainCommand.class);
    commands.put("keys", KeysCommand.class);
    commands.put("aot-train", AotTrainCommand.class);
    commands.put("help", CommandLine.HelpCommand.class);
    return Collections.unmodifiableMap(commands);
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
