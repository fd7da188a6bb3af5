package io.kvfleet.control;

/**
 * Start-up phases on stderr, for {@code bench startup}, when the environment has
 * {@code KVFLEET_STARTUP_MARKS=1}, nothing otherwise: {@code kvfleet-startup <phase> <end ms>} for a
 * step of the sequence, {@code kvfleet-startup <phase> <end ms> <begin ms>} for a phase that runs
 * beside others (epoch milliseconds). The bench that started the process subtracts its own clock at
 * the launch, so a mark costs one clock read.
 */
public final class StartupMarks {
  private static final boolean ON = "1".equals(System.getenv("KVFLEET_STARTUP_MARKS"));

  private StartupMarks() {}

  /** Notes that {@code phase} is done now. */
  public static void mark(String phase) {
    if (ON) {
      System.err.println("kvfleet-startup " + phase + " " + System.currentTimeMillis());
    }
  }

  /** Notes that {@code phase}, begun at {@code beganMillis} ({@link #now()}), is done now. */
  public static void span(String phase, long beganMillis) {
    if (ON) {
      System.err.println("kvfleet-startup " + phase + " " + System.currentTimeMillis() + " " + beganMillis);
    }
  }

  /** The clock the marks use. */
  public static long now() {
    return System.currentTimeMillis();
  }
}
