package io.kvfleet.engine;

import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/**
 * Run in a child JVM by {@link ResourceFlatnessTest}: warms up, measures, registers and
 * deregisters 10,000 regions and runs 100,000 transfer batches (with key and endpoint churn on
 * the side), measures again, and prints {@code RESULT <name> <before> <after>} lines.
 */
public final class ResourceChurn {
  private static final long PAGE = 4096;
  private static final MemoryLayout MALLINFO2 = MemoryLayout.sequenceLayout(10, JAVA_LONG);
  private static final MethodHandle MALLINFO = Linker.nativeLinker().downcallHandle(
      Linker.nativeLinker().defaultLookup().find("mallinfo2").orElseThrow(),
      FunctionDescriptor.of(MemoryLayout.structLayout(MALLINFO2)));

  public static void main(String[] args) throws Throwable {
    EngineConfig config = EngineConfig.defaults().withBackends(args[0].split(","));
    try (Engine source = Engine.open(config.withName("churn-source"));
        Engine target = Engine.open(config.withName("churn-target"))) {
      MemorySegment external = source.allocate("external", 16 * 1024 * PAGE).segment();
      HostMemory local = source.allocate("local", 16 * PAGE);
      HostMemory remoteMemory = target.allocate("remote", 16 * PAGE);
      String backend = source.backends().getFirst();
      Registration from = source.register(RegionRequest.of(local)).registration(backend).orElseThrow();
      Registration to = target.register(RegionRequest.of(remoteMemory)).registration(backend)
          .orElseThrow();
      churn(source, target, external, from, to, backend, 2_000, 20_000);
      long[] before = measure();
      churn(source, target, external, from, to, backend, 10_000, 100_000);
      long[] after = measure();
      String[] names = {"rss", "fds", "malloc"};
      for (int i = 0; i < names.length; i++) {
        System.out.println("RESULT " + names[i] + " " + before[i] + " " + after[i]);
      }
    }
  }

  private static void churn(Engine source, Engine target, MemorySegment external,
      Registration from, Registration to, String backend, int registrations, int batches) {
    for (int i = 0; i < registrations; i++) {
      long offset = (i % 1024) * 16 * PAGE;
      RegistrationResult result = source.register(
          RegionRequest.dram("churn-" + i, external.address() + offset, 16 * PAGE));
      if (!result.registered()) {
        throw new IllegalStateException("registration " + i + " failed: " + result);
      }
      result.registrations().forEach(source::deregister);
    }
    Peer peer = source.connect(target.address(backend));
    RemoteRegion remote = peer.attach(to.remoteKey());
    TransferBatch batch = new TransferBatch();
    for (int i = 0; i < batches; i++) {
      if (i % 1_000 == 999) {
        remote.close();
        remote = peer.attach(to.remoteKey());
      }
      if (i % 20_000 == 19_999) {
        peer.close();
        peer = source.connect(target.address(backend));
        remote = peer.attach(to.remoteKey());
      }
      batch.clear().add(from, (i % 16) * PAGE, remote, ((i * 7) % 16) * PAGE, PAGE);
      TransferResult result = i % 2 == 0 ? peer.write(batch) : peer.read(batch);
      if (!result.succeeded()) {
        throw new IllegalStateException("batch " + i + " failed: " + result);
      }
    }
    peer.close();
  }

  /** RSS bytes, open file descriptors, bytes glibc malloc has handed out. */
  private static long[] measure() throws Throwable {
    System.gc();
    Thread.sleep(200);
    long rss = 0;
    for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
      if (line.startsWith("VmRSS:")) {
        rss = Long.parseLong(line.replaceAll("\\D", "")) * 1024;
      }
    }
    long fds;
    try (Stream<Path> entries = Files.list(Path.of("/proc/self/fd"))) {
      fds = entries.count();
    } catch (IOException e) {
      fds = -1;
    }
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment info = (MemorySegment) MALLINFO.invokeExact((java.lang.foreign.SegmentAllocator) arena);
      long inUse = info.getAtIndex(JAVA_LONG, 7) + info.getAtIndex(JAVA_LONG, 4); // uordblks + hblkhd
      return new long[] {rss, fds, inUse};
    }
  }
}
