package io.kvfleet.control.bench;

import java.lang.management.ManagementFactory;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * CPU time this JVM spent during a phase, by the part of the system its threads belong to (named
 * by thread name), so the report can say where the cores went. The JIT compilers' time is
 * {@code jit}: the CPU of the compiler threads read from {@code /proc/self/task} (the compilation
 * bean's total is the compilations' elapsed time, which counts a compiler thread waiting for a core
 * as compiling, so it is reported beside it, not as cores); what no thread accounts for (mostly
 * garbage collection) is {@code gc+other}. The broker's JVM, when the bench started one, is measured
 * apart.
 */
final class CpuMeter {
  private static final com.sun.management.ThreadMXBean THREADS =
      (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
  private static final com.sun.management.OperatingSystemMXBean OS =
      (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
  private static final java.lang.management.CompilationMXBean JIT = ManagementFactory.getCompilationMXBean();

  private final Map<Long, Long> threadStart = new TreeMap<>();
  private final Map<Long, String> names = new TreeMap<>();
  private final long processStart = OS.getProcessCpuTime();
  /** The bench's broker in its own JVM, when there is one; its CPU is reported beside this JVM's. */
  private static volatile BrokerProcess broker;

  private final long jitStartMillis = jitMillis();
  private final long jitCpuStart = CompilerThreads.cpuNanos();
  private final long brokerStart = brokerCpu();
  private final long[] gcStart = gcPauses();
  private final long allocatedStart = allocated();
  private final long wallStart = System.nanoTime();
  private final long generator = Thread.currentThread().threadId();

  private CpuMeter() {
    sample(threadStart);
  }

  /** Measures {@code process}'s CPU beside this JVM's from the next phase on. */
  static void watchBroker(BrokerProcess process) {
    broker = process;
  }

  private static long brokerCpu() {
    var process = broker;
    return process == null ? -1 : process.cpuNanos();
  }

  /** Starts measuring now; the calling thread counts as the load generator. */
  static CpuMeter start() {
    return new CpuMeter();
  }

  /** Cores used since the start, by part, largest first. */
  CpuUse stop() {
    var now = new TreeMap<Long, Long>();
    sample(now);
    double wall = Math.max(1, System.nanoTime() - wallStart);
    var byPart = new TreeMap<String, Long>();
    long threads = 0;
    for (var e : now.entrySet()) {
      long used = e.getValue() - threadStart.getOrDefault(e.getKey(), 0L);
      threads += used;
      byPart.merge(e.getKey() == generator ? "load generator" : part(names.get(e.getKey())), used, Long::sum);
    }
    long process = OS.getProcessCpuTime() - processStart;
    long compileTime = (jitMillis() - jitStartMillis) * 1_000_000;
    long jitCpu = CompilerThreads.cpuNanos();
    long jit = jitCpu >= 0 && jitCpuStart >= 0 ? Math.max(0, jitCpu - jitCpuStart) : compileTime;
    byPart.put("jit", jit);
    byPart.put("gc+other", Math.max(0, process - threads - jit));
    var cores = byPart.entrySet().stream()
        .sorted(Map.Entry.<String, Long>comparingByValue().reversed())
        .collect(Collectors.toMap(Map.Entry::getKey, e -> e.getValue() / wall, (a, b) -> a, LinkedHashMap::new));
    long[] gc = gcPauses();
    long brokerNow = brokerCpu();
    double brokerCores = brokerNow >= 0 && brokerStart >= 0 ? (brokerNow - brokerStart) / wall : Double.NaN;
    return new CpuUse(process / wall, cores, gc[0] - gcStart[0], gc[1] - gcStart[1],
        Math.max(0, allocated() - allocatedStart), compileTime / wall, brokerCores);
  }

  /** Bytes allocated so far by every thread of this JVM, those that ended included. */
  private static long allocated() {
    return Math.max(0, THREADS.getTotalThreadAllocatedBytes());
  }

  /**
   * Stop-the-world collections so far and their time in ms (concurrent cycles left out: G1's
   * "G1 Concurrent GC", ZGC's "ZGC Minor Cycles" and "ZGC Major Cycles", whose pauses ZGC counts
   * apart in its "Pauses" beans).
   */
  private static long[] gcPauses() {
    long count = 0;
    long millis = 0;
    for (var gc : ManagementFactory.getGarbageCollectorMXBeans()) {
      if (isPauses(gc.getName()) && gc.getCollectionCount() > 0) {
        count += gc.getCollectionCount();
        millis += gc.getCollectionTime();
      }
    }
    return new long[] {count, millis};
  }

  /** Whether a collector bean of this name counts stop-the-world pauses. */
  static boolean isPauses(String collector) {
    return !(collector.contains("Concurrent") || collector.contains("Cycles"));
  }

  private static long jitMillis() {
    return JIT != null && JIT.isCompilationTimeMonitoringSupported() ? JIT.getTotalCompilationTime() : 0;
  }

  private void sample(Map<Long, Long> into) {
    for (var info : THREADS.getThreadInfo(THREADS.getAllThreadIds())) {
      if (info == null) {
        continue;
      }
      long cpu = THREADS.getThreadCpuTime(info.getThreadId());
      if (cpu >= 0) {
        into.put(info.getThreadId(), cpu);
        names.put(info.getThreadId(), info.getThreadName());
      }
    }
  }

  /** The part of the system a thread of this name works for. */
  static String part(String thread) {
    String name = thread == null ? "" : thread.toLowerCase(Locale.ROOT);
    if (name.startsWith("kafka-producer-network-thread")) {
      return "producer i/o";
    }
    if (name.startsWith("kvfleet-publish-")) {
      return "publishers";
    }
    if (name.startsWith("vert.x-kafka-consumer")) {
      return "vert.x kafka consumers";
    }
    if (name.startsWith("vert.x-eventloop")) {
      return "event loops";
    }
    if (name.startsWith("vert.x-worker")) {
      return "workers";
    }
    if (name.startsWith("bench-responder")) {
      return "raw responder";
    }
    if (name.startsWith("bench-")) {
      return "bench readers";
    }
    if (name.contains("kafka") || name.contains("raft") || name.contains("controller")
        || name.startsWith("executor-") || name.startsWith("data-plane")) {
      return "broker";
    }
    return "other";
  }
}
