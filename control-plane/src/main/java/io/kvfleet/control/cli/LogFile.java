package io.kvfleet.control.cli;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Chooses the file that Kafka's and Vert.x's logs go to, before anything logs: {@code $KVFLEET_LOG}
 * or {@code <tmp>/kvfleet-<pid>.log}. The console is kept for fleet events.
 */
final class LogFile {
  private static final String PROPERTY = "kvfleet.log.file";

  private LogFile() {}

  static void init() {
    if (System.getProperty(PROPERTY) == null) {
      String env = System.getenv("KVFLEET_LOG");
      Path fallback = Path.of(System.getProperty("java.io.tmpdir"), "kvfleet-" + ProcessHandle.current().pid() + ".log");
      Path file = env == null || env.isBlank() ? fallback : Path.of(env);
      Path folder = file.toAbsolutePath().getParent();
      if (folder != null && !Files.isDirectory(folder)) {
        System.err.println("kvfleet: KVFLEET_LOG=" + env + " names a folder that does not exist; logs go to "
            + fallback + " instead");
        file = fallback;
      }
      System.setProperty(PROPERTY, file.toString());
    }
    // Our own stop closes the brokers; Log4j must keep logging while they shut down.
    System.setProperty("log4j2.shutdownHookEnabled", "false");
    System.setProperty("vertx.logger-delegate-factory-class-name", "io.vertx.core.logging.SLF4JLogDelegateFactory");
  }

  static Path path() {
    return Path.of(System.getProperty(PROPERTY));
  }
}
