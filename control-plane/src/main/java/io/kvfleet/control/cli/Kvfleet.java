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
        .setParameterExceptionHandler(Kvfleet::badArguments)
        .setExecutionExceptionHandler((error, commandLine, parseResult) -> {
          // Also when it comes wrapped, e.g. by a future that failed with it.
          for (Throwable t = error; t != null; t = t.getCause()) {
            if (t instanceof KvfleetException) {
              // "kvfleet keys new", not "kvfleet new"
              commandLine.getErr().println(commandLine.getCommandSpec().qualifiedName() + ": " + t.getMessage());
              return 2; // a situation the user can act on: the message says what, no stack trace
            }
            // e.g. a bootstrap address without a port
            if (t instanceof org.apache.kafka.common.config.ConfigException) {
              commandLine.getErr().println(commandLine.getCommandSpec().qualifiedName() + ": Kafka's client refused its"
                  + " settings: " + t.getMessage() + " (--bootstrap-servers takes HOST:PORT[,HOST:PORT...], e.g."
                  + " 127.0.0.1:9092, of hosts this machine can resolve)");
              return 2;
            }
          }
          throw error;
        });
  }

  /**
   * What was wrong with the arguments, each unknown option with the closest the command has (a required option's
   * absence was all picocli said of {@code --bootstrap-server}), and where the options are listed.
   */
  private static int badArguments(CommandLine.ParameterException error, String[] args) {
    var line = error.getCommandLine();
    var err = line.getErr();
    String command = line.getCommandSpec().qualifiedName();
    err.println(command + ": " + error.getMessage());
    boolean named = false;
    for (String arg : args) {
      if (arg.equals("--")) {
        break;
      }
      String name = arg.contains("=") ? arg.substring(0, arg.indexOf('=')) : arg;
      if (name.startsWith("--") && name.length() > 2 && line.getCommandSpec().findOption(name) == null) {
        named = true;
        closestOption(line.getCommandSpec(), name).ifPresentOrElse(
            known -> err.println("  " + name + " is not an option of " + command + ": did you mean " + known + "?"),
            () -> err.println("  " + name + " is not an option of " + command));
      }
    }
    if (!named) { // a mistyped command: picocli's own suggestion
      CommandLine.UnmatchedArgumentException.printSuggestions(error, err);
    }
    err.println("'" + command + " --help' lists its options.");
    return line.getCommandSpec().exitCodeOnInvalidInput();
  }

  /** The option name nearest {@code name} by edit distance, if one is near enough to be a slip. */
  static java.util.Optional<String> closestOption(CommandLine.Model.CommandSpec spec, String name) {
    return spec.options().stream().flatMap(o -> java.util.Arrays.stream(o.names()))
        .filter(known -> known.startsWith("--"))
        .min(java.util.Comparator.comparingInt(known -> distance(known, name)))
        .filter(known -> distance(known, name) <= Math.max(2, known.length() / 4));
  }

  private static int distance(String a, String b) {
    int[] previous = new int[b.length() + 1];
    int[] current = new int[b.length() + 1];
    for (int j = 0; j <= b.length(); j++) {
      previous[j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      current[0] = i;
      for (int j = 1; j <= b.length(); j++) {
        int swap = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
        current[j] = Math.min(Math.min(current[j - 1] + 1, previous[j] + 1), previous[j - 1] + swap);
      }
      int[] kept = previous;
      previous = current;
      current = kept;
    }
    return previous[b.length()];
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
