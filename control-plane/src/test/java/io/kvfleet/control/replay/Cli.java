package io.kvfleet.control.replay;

import io.kvfleet.control.cli.Kvfleet;
import io.kvfleet.control.console.Terminal;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/** Runs the {@code kvfleet} command line in this JVM and keeps what it printed. */
public final class Cli {
  public record Run(int exitCode, String out, String err) {}

  private Cli() {}

  public static synchronized Run run(String... args) {
    var out = new ByteArrayOutputStream();
    var err = new ByteArrayOutputStream();
    PrintStream stdout = System.out;
    PrintStream stderr = System.err;
    // As the launcher's main does: control characters escaped.
    System.setOut(Terminal.escaping(out));
    System.setErr(Terminal.escaping(err));
    try {
      int code = Kvfleet.commandLine().execute(args);
      return new Run(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    } finally {
      System.setOut(stdout);
      System.setErr(stderr);
    }
  }
}
