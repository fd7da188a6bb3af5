package io.kvfleet.engine.cuda;

import io.kvfleet.engine.Engine;
import io.kvfleet.engine.EngineConfig;
import io.kvfleet.engine.RegionRequest;
import io.kvfleet.engine.Registration;
import io.kvfleet.engine.RemoteKey;
import io.kvfleet.engine.WorkerAddress;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * A second process on the same GPU. In {@code handle} mode it is an inference worker: it allocates
 * device memory, fills it with a pattern and prints the allocation's IPC handle. In {@code engine}
 * mode it is another node's agent: it registers a range one MiB into its allocation with its own
 * engine and prints the worker address and remote key. Then, on {@code verify <seed>}, it checks
 * that the range now holds that seed's pattern, and frees everything on {@code exit}. {@link Child}
 * drives it.
 */
public final class IpcExporterMain {
  private IpcExporterMain() {}

  static final long ENGINE_OFFSET = 1 << 20;

  public static void main(String[] args) throws IOException {
    boolean engineMode = args[0].equals("engine");
    long length = Long.parseLong(args[1]);
    long seed = Long.parseLong(args[2]);
    long offset = engineMode ? ENGINE_OFFSET : 0;
    PrintStream out = System.out;
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    try (DeviceMemory memory = DeviceMemory.allocate(0, offset + length);
        PinnedHostMemory host = PinnedHostMemory.allocate(length);
        Engine engine = engineMode ? Engine.open(EngineConfig.defaults().withBackends("cuda")
            .withName("other-node")) : null) {
      Patterns.fill(host.segment(), seed);
      require(CudaCopy.copy(memory.address() + offset, host.address(), length));
      if (engineMode) {
        Registration region = engine.register(RegionRequest.vram("far-kv", 0,
            memory.address() + offset, length)).registration("cuda").orElseThrow();
        out.println("address " + engine.address("cuda").toBase64());
        out.println("key " + region.remoteKey().toBase64());
      } else {
        out.println("handle " + memory.exportHandle().toBase64());
      }
      out.flush();
      for (String line = in.readLine(); line != null && !line.equals("exit"); line = in.readLine()) {
        long expected = Long.parseLong(line.substring("verify ".length()));
        host.segment().fill((byte) 0);
        require(CudaCopy.copy(host.address(), memory.address() + offset, length));
        long mismatch = Patterns.firstMismatch(host.segment(), 0, expected);
        out.println(mismatch < 0 ? "verified" : "mismatch at " + mismatch);
        out.flush();
      }
    }
  }

  private static void require(Optional<CudaError> error) {
    if (error.isPresent()) {
      throw new IllegalStateException(error.get().describe());
    }
  }

  /** Reads device memory into a fresh host segment. */
  static MemorySegment read(Arena arena, long device, long length) {
    MemorySegment host = arena.allocate(length, 4096);
    require(CudaCopy.copy(host.address(), device, length));
    return host;
  }

  /** The second process, running in a child JVM. */
  static final class Child implements AutoCloseable {
    private final Process process;
    private final BufferedReader out;
    private final PrintStream in;
    private final List<String> noise = new ArrayList<>();
    private final Map<String, String> fields = new HashMap<>();

    private Child(Process process) {
      this.process = process;
      this.out = new BufferedReader(new InputStreamReader(process.getInputStream(),
          StandardCharsets.UTF_8));
      this.in = new PrintStream(process.getOutputStream(), true, StandardCharsets.UTF_8);
    }

    /** A worker that exports {@code length} bytes filled with {@code seed}'s pattern. */
    static Child worker(long length, long seed) throws IOException {
      return start("handle", length, seed);
    }

    /** Another node's engine with {@code length} registered bytes filled with {@code seed}'s pattern. */
    static Child engine(long length, long seed) throws IOException {
      return start("engine", length, seed);
    }

    private static Child start(String mode, long length, long seed) throws IOException {
      List<String> command = List.of(
          java.nio.file.Path.of(System.getProperty("java.home"), "bin", "java").toString(),
          "--enable-native-access=ALL-UNNAMED", "-cp", ClassPaths.of(IpcExporterMain.class),
          IpcExporterMain.class.getName(), mode, Long.toString(length), Long.toString(seed));
      return new Child(new ProcessBuilder(command).redirectErrorStream(true).start());
    }

    IpcHandle handle() throws IOException {
      return IpcHandle.fromBase64(field("handle"));
    }

    WorkerAddress address() throws IOException {
      return WorkerAddress.fromBase64(field("address"));
    }

    RemoteKey key() throws IOException {
      return RemoteKey.fromBase64(field("key"));
    }

    /** Asks whether its memory holds {@code seed}'s pattern: {@code verified} or where it differs. */
    String verify(long seed) throws IOException {
      in.println("verify " + seed);
      String line = out.readLine();
      while (line != null && !line.equals("verified") && !line.startsWith("mismatch")) {
        noise.add(line);
        line = out.readLine();
      }
      return line == null ? "the child ended: " + noise : line;
    }

    /** The value of the {@code name value} line it printed, read once and kept. */
    private String field(String name) throws IOException {
      while (!fields.containsKey(name)) {
        String line = out.readLine();
        if (line == null) {
          throw new IllegalStateException("the child ended before printing its " + name + ": "
              + String.join("\n", noise));
        }
        int space = line.indexOf(' ');
        if (space > 0 && List.of("handle", "address", "key").contains(line.substring(0, space))) {
          fields.put(line.substring(0, space), line.substring(space + 1));
        } else {
          noise.add(line);
        }
      }
      return fields.get(name);
    }

    /** Tells it to free its memory and exit; kills it after 30 s. */
    @Override
    public void close() {
      in.println("exit");
      try {
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
          process.destroyForcibly();
        }
      } catch (InterruptedException e) {
        process.destroyForcibly();
        Thread.currentThread().interrupt();
      }
    }
  }
}
