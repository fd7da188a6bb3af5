package io.kvfleet.control.replay.bench;

import java.lang.management.ManagementFactory;

/**
 * Items per second of one measured run, by the wall clock and by the CPU time of the thread that
 * did the work (the fold runs on one thread: its CPU rate is the rate of one core), with the CPU
 * time of the whole process beside it (every thread: the broker in the same JVM, GC, and the
 * pipelines' other threads).
 */
public record Rate(String what, long items, double wallSeconds, double threadCpuSeconds, double processCpuSeconds) {

  /** Items per wall-clock second. */
  public double perSecond() {
    return items / wallSeconds;
  }

  /** Items per second of the working thread's CPU time. */
  public double perCpuSecond() {
    return items / threadCpuSeconds;
  }

  /** Times {@code work} (which returns how many items it did) on this thread. */
  static Rate measure(String what, java.util.function.LongSupplier work) {
    var threads = ManagementFactory.getThreadMXBean();
    long process = processCpuNanos();
    long cpu = threads.getCurrentThreadCpuTime();
    long start = System.nanoTime();
    long items = work.getAsLong();
    double wall = (System.nanoTime() - start) / 1e9;
    double cpuSeconds = (threads.getCurrentThreadCpuTime() - cpu) / 1e9;
    return new Rate(what, items, wall, cpuSeconds, (processCpuNanos() - process) / 1e9);
  }

  /** Microseconds of the whole process's CPU per item. */
  public double processCpuMicrosPerItem() {
    return processCpuSeconds * 1e6 / items;
  }

  private static long processCpuNanos() {
    return ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os
        ? os.getProcessCpuTime() : 0;
  }

  /** The faster of two runs. */
  static Rate best(Rate a, Rate b) {
    return a == null || b.perSecond() > a.perSecond() ? b : a;
  }

  @Override
  public String toString() {
    // NaN: the process's CPU was not measured (a part timed in slices, such as the tokenizer's batches).
    String process = Double.isNaN(processCpuSeconds) ? "" : String.format("; process CPU %.2f us each",
        processCpuMicrosPerItem());
    return String.format("%-46s %,11d in %6.2f s: %,12.0f /s (thread CPU %,12.0f /s%s)", what, items, wallSeconds,
        perSecond(), perCpuSecond(), process);
  }
}
