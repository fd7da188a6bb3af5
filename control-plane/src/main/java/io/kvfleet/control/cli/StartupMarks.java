package io.kvfleet.control.cli;

/**
 * Start-up phases on stderr, for {@code bench startup}: {@code kvfleet-startup <phase> <epoch ms>}
 * when the environment has {@code KVFLEET_STARTUP_MARKS=1}, nothing otherwise. The bench that
 * started the process subtracts its own clock at the start, so a mark costs one clock read.
 */
final class StartupMarks {
  private static final boolean ON = "1".equals(System.getenv("KVFLEET_STARTUP_MARKS"));

  private StartupMarks() {}

  /** Notes that {@code phase} is done now. */
  static void mark(String phase) {
    if (ON) {
      System.err.println("kvfleet-startup " + phase + " " + System.currentTimeMillis());
    }
  }
}
