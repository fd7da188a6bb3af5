package io.kvfleet.control.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The CPU of this JVM's JIT compiler threads, read from Linux's {@code /proc/self/task}: HotSpot
 * hides them from the thread bean, and its compilation time is elapsed time, not CPU.
 */
final class CompilerThreads {
  /** {@code /proc} counts in clock ticks of USER_HZ, 100 per second on Linux. */
  private static final long NANOS_PER_TICK = 10_000_000L;
  private static final Path TASKS = Path.of("/proc/self/task");

  private CompilerThreads() {}

  /** User and system CPU of the compiler threads alive now, in nanoseconds; -1 without {@code /proc}. */
  static long cpuNanos() {
    if (!Files.isDirectory(TASKS)) {
      return -1;
    }
    long ticks = 0;
    try (var tasks = Files.list(TASKS)) {
      for (var task : (Iterable<Path>) tasks::iterator) {
        ticks += compilerTicks(task.resolve("stat"));
      }
    } catch (IOException | RuntimeException e) {
      return -1;
    }
    return ticks * NANOS_PER_TICK;
  }

  /** utime + stime of the task if it is a compiler thread, else 0 (also when it just ended). */
  private static long compilerTicks(Path stat) {
    String line;
    try {
      line = Files.readString(stat);
    } catch (IOException e) {
      return 0;
    }
    return ticksOf(line);
  }

  /** From one {@code stat} line: utime + stime when its name is a compiler thread's, else 0. */
  static long ticksOf(String line) {
    int open = line.indexOf('(');
    int close = line.lastIndexOf(')');
    if (open < 0 || close < open) {
      return 0;
    }
    String name = line.substring(open + 1, close);
    if (!(name.startsWith("C1 CompilerThre") || name.startsWith("C2 CompilerThre"))) {
      return 0;
    }
    // After the name: state(3) ppid(4) ... utime(14) stime(15); fields counted from 1 with pid and name.
    String[] rest = line.substring(close + 2).split(" ");
    return Long.parseLong(rest[11]) + Long.parseLong(rest[12]);
  }
}
