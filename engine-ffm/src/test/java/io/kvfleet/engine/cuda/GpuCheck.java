package io.kvfleet.engine.cuda;

import io.kvfleet.engine.Engine;
import io.kvfleet.engine.EngineConfig;
import io.kvfleet.engine.Peer;
import io.kvfleet.engine.RegionRequest;
import io.kvfleet.engine.Registration;
import io.kvfleet.engine.RegistrationFailure;
import io.kvfleet.engine.RegistrationOutcome;
import io.kvfleet.engine.RegistrationResult;
import io.kvfleet.engine.RemoteRegion;
import io.kvfleet.engine.TransferBatch;
import io.kvfleet.engine.TransferFailure;
import io.kvfleet.engine.TransferResult;
import io.kvfleet.engine.internal.Hex;
import java.lang.foreign.Arena;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The GPU check that {@code scripts/gpu-check.sh} runs on an NVIDIA machine: registers KV buffers
 * and state tensors from {@code cudaMalloc}, imports a second process's buffer by CUDA IPC handle,
 * moves bytes device to device and by the staged path, verifies every byte, and prints each path's
 * bandwidth beside a plain {@code cudaMemcpy} of the same size. Exit status: 0 pass, 1 a check
 * failed, 2 no usable GPU here (the reason is printed).
 */
public final class GpuCheck {
  static final int PASS = 0;
  static final int FAIL = 1;
  static final int NO_GPU = 2;

  private final long size;
  private final List<String> failures = new ArrayList<>();

  private GpuCheck(long size) {
    this.size = size;
  }

  public static void main(String[] args) throws Exception {
    long mib = args.length > 0 ? Long.parseLong(args[0]) : 1024;
    System.exit(new GpuCheck(mib << 20).run());
  }

  int run() throws Exception {
    Optional<String> missing = Cuda.libraryError();
    if (missing.isPresent()) {
      say("SKIPPED: the CUDA runtime is not installed: " + missing.get());
      return NO_GPU;
    }
    CudaProbe probe = Cuda.probe();
    say("cuda: " + probe.library() + ", " + probe.version() + "; " + probe.summary());
    if (!probe.usable()) {
      say("SKIPPED: no usable GPU here, so nothing was registered or moved.");
      say("remedy: " + probe.remediation());
      return NO_GPU;
    }
    int decodeDevice = probe.devices().size() > 1 ? 1 : 0;
    EngineConfig config = EngineConfig.defaults();
    List<DeviceMemory> states = new ArrayList<>();
    try (DeviceMemory kv = DeviceMemory.allocate(0, size);
        DeviceMemory received = DeviceMemory.allocate(decodeDevice, size);
        PinnedHostMemory host = PinnedHostMemory.allocate(size)) {
      Patterns.fill(host.segment(), 11);
      require("fill the KV buffer", CudaCopy.copy(kv.address(), host.address(), size));
      try (Engine prefill = Engine.open(config.withName("prefill"));
          Engine decode = Engine.open(config.withName("decode"))) {
        prefill.capabilities().forEach(c -> say("capability " + c.summary()));
        Registration source = registerKv(prefill, kv);
        registerStateTensors(prefill, states);
        refuseBadPointers(prefill, kv, host, probe.devices().size());
        importFromAnotherProcess(decode);
        Registration target = registerKv(decode, received);
        if (source != null && target != null) {
          deviceToDevice(prefill, decode, source, target, kv, received);
          deviceToAnotherProcess(prefill, source);
        }
        staged(prefill, decode, kv, decodeDevice, host);
      } finally {
        states.forEach(DeviceMemory::close); // after the engines: they deregister first
      }
    }
    say(failures.isEmpty() ? "gpu-check: PASS" : "gpu-check: FAIL: " + failures);
    return failures.isEmpty() ? PASS : FAIL;
  }

  private Registration registerKv(Engine engine, DeviceMemory memory) {
    RegistrationResult result = engine.register(memory.request("kv-" + engine.config().name()));
    result.outcomes().forEach(o -> say("  " + describe(o)));
    Optional<Registration> cuda = result.registration("cuda");
    check("register " + Hex.bytes(memory.length()) + " of KV cache on GPU " + memory.device()
        + " with cuda", cuda.isPresent());
    cuda.ifPresent(r -> check("its key carries a CUDA IPC handle",
        CudaKey.decode(r.remoteKey().packed()).exportable()));
    return cuda.orElse(null);
  }

  private void registerStateTensors(Engine engine, List<DeviceMemory> states) {
    for (int layer = 0; layer < 4; layer++) {
      DeviceMemory state = DeviceMemory.allocate(0, 8 << 20);
      states.add(state);
      RegistrationResult result = engine.register(state.request("state-L" + layer));
      check("register state tensor state-L" + layer + " (8 MiB) with cuda",
          result.registration("cuda").isPresent());
    }
  }

  private void refuseBadPointers(Engine engine, DeviceMemory kv, PinnedHostMemory host,
      int devices) {
    expectFailure(engine, RegionRequest.vram("host-as-vram", 0, host.address(), 4096),
        RegistrationFailure.INVALID_ADDRESS, "invalid device pointer");
    expectFailure(engine, RegionRequest.vram("too-long", 0, kv.address() + kv.length() - 4096, 8192),
        RegistrationFailure.INVALID_ADDRESS, "invalid device pointer");
    expectFailure(engine, RegionRequest.vram("no-such-gpu", devices, kv.address(), 4096),
        RegistrationFailure.DEVICE_UNAVAILABLE, "not present");
  }

  private void expectFailure(Engine engine, RegionRequest request, RegistrationFailure reason,
      String text) {
    RegistrationOutcome outcome = engine.register(request).outcome("cuda").orElseThrow();
    say("  " + describe(outcome));
    check("refuse " + request.regionId() + " with " + reason,
        outcome instanceof RegistrationOutcome.Failed f && f.reason() == reason
            && f.detail().contains(text));
  }

  private void importFromAnotherProcess(Engine decode) throws Exception {
    long length = Math.min(size, 64L << 20);
    try (IpcExporterMain.Child worker = IpcExporterMain.Child.worker(length, 21);
        Arena arena = Arena.ofConfined()) {
      RegistrationResult result = decode.register(worker.handle().request("worker-kv", 0, length));
      result.outcomes().forEach(o -> say("  " + describe(o)));
      Optional<Registration> imported = result.registration("cuda");
      check("register another process's buffer from its CUDA IPC handle", imported.isPresent());
      if (imported.isEmpty()) {
        return;
      }
      long address = imported.get().address();
      check("read the worker's bytes through the imported handle", Patterns.firstMismatch(
          IpcExporterMain.read(arena, address, length), 0, 21) < 0);
      var mine = arena.allocate(length, 4096);
      Patterns.fill(mine, 22);
      require("write into the worker's buffer", CudaCopy.copy(address, mine.address(), length));
      check("the worker sees the agent's bytes", "verified".equals(worker.verify(22)));
      decode.deregister(imported.get());
    }
  }

  private void deviceToDevice(Engine prefill, Engine decode, Registration source,
      Registration target, DeviceMemory kv, DeviceMemory received) {
    try (Peer peer = prefill.connect(decode.address("cuda"))) {
      RemoteRegion remote = peer.attach(target.remoteKey());
      TransferBatch batch = new TransferBatch().add(source, 0, remote, 0, size);
      double engine = bandwidth(() -> peer.write(batch));
      verify("device to device", received.address(), size);
      double plain = bandwidth(() -> copied(CudaCopy.copy(received.address(), kv.address(), size)));
      say(String.format(Locale.ROOT, "d2d: engine %.1f GB/s, cudaMemcpy %.1f GB/s, ratio %.2f"
          + " (path %s, %s per transfer)", engine, plain, engine / plain, peer.path(),
          Hex.bytes(size)));
    }
  }

  /** Another process's engine: its key is opened from the IPC handle it carries ({@code cuda/d2d+ipc}). */
  private void deviceToAnotherProcess(Engine prefill, Registration source) throws Exception {
    long length = Math.min(size, 64L << 20);
    try (IpcExporterMain.Child node = IpcExporterMain.Child.engine(length, 41);
        Peer peer = prefill.connect(node.address())) {
      RemoteRegion remote = peer.attach(node.key());
      check("a peer in another process is reached by " + peer.path(),
          peer.path().equals("cuda/d2d+ipc"));
      TransferBatch batch = new TransferBatch().add(source, 0, remote, 0, length);
      double engine = bandwidth(() -> peer.write(batch), length);
      check("the other process sees every byte written through its key",
          "verified".equals(node.verify(11)));
      say(String.format(Locale.ROOT, "d2d to another process: engine %.1f GB/s (path %s, %s per"
          + " transfer)", engine, peer.path(), Hex.bytes(length)));
    }
  }

  private void staged(Engine prefill, Engine decode, DeviceMemory kv, int decodeDevice,
      PinnedHostMemory host) {
    String transport = prefill.backends().contains("ucx") ? "ucx" : "host";
    long length = Math.min(size, 256L << 20);
    long chunk = Math.min(length, 16L << 20);
    try (PinnedHostMemory bounce = PinnedHostMemory.allocate(chunk);
        PinnedHostMemory landing = PinnedHostMemory.allocate(chunk);
        DeviceMemory destination = DeviceMemory.allocate(decodeDevice, length)) {
      Optional<Registration> bounceRegion = prefill.register(bounce.request("bounce"))
          .registration(transport);
      Optional<Registration> landingRegion = decode.register(landing.request("landing"))
          .registration(transport);
      check("register pinned bounce and landing buffers with " + transport,
          bounceRegion.isPresent() && landingRegion.isPresent());
      if (bounceRegion.isEmpty() || landingRegion.isEmpty()) {
        return;
      }
      try (Peer peer = prefill.connect(decode.address(transport))) {
        StagedWrite write = new StagedWrite(peer, bounceRegion.get(),
            peer.attach(landingRegion.get().remoteKey()),
            StagedWrite.intoDevice(landing.address(), destination.address()));
        double staged = bandwidth(() -> write.write(kv.address(), 0, length), length);
        verify("staged through " + write.path(), destination.address(), length);
        double plain = bandwidth(() -> copied(CudaCopy.copy(destination.address(), kv.address(),
            length)), length);
        double d2h = bandwidth(() -> copied(CudaCopy.copy(host.address(), kv.address(), length)),
            length);
        say(String.format(Locale.ROOT, "staged: engine %.1f GB/s, cudaMemcpy d2d %.1f GB/s, ratio"
            + " %.2f; cudaMemcpy d2h %.1f GB/s, ratio %.2f (path %s, %s in %s chunks)", staged,
            plain, staged / plain, d2h, staged / d2h, write.path(), Hex.bytes(length),
            Hex.bytes(chunk)));
      }
      prefill.deregister(bounceRegion.get());
      decode.deregister(landingRegion.get());
    }
  }

  private double bandwidth(Supplier<TransferResult> transfer) {
    return bandwidth(transfer, size);
  }

  /** GB/s over 10 transfers after 2 warm-ups; a failed transfer fails the check. */
  private double bandwidth(Supplier<TransferResult> transfer, long bytes) {
    for (int i = 0; i < 2; i++) {
      checkResult(transfer.get());
    }
    long start = System.nanoTime();
    for (int i = 0; i < 10; i++) {
      checkResult(transfer.get());
    }
    return 10.0 * bytes / (System.nanoTime() - start);
  }

  private void checkResult(TransferResult result) {
    if (!result.succeeded()) {
      failures.add(result.toString());
      say("FAIL " + result);
    }
  }

  private static TransferResult copied(Optional<CudaError> error) {
    return error.<TransferResult>map(e -> new TransferResult.Failed(
        TransferFailure.TRANSPORT_ERROR, e.describe(), e.code(),
        e.nativeMessage(), 0, "cudaMemcpy")).orElse(new TransferResult.Completed(0, 1, 0, "cudaMemcpy"));
  }

  /** Copies device memory back to the host and compares it with the pattern. */
  private void verify(String what, long device, long length) {
    try (PinnedHostMemory back = PinnedHostMemory.allocate(length)) {
      require(what + ": read back", CudaCopy.copy(back.address(), device, length));
      long mismatch = Patterns.firstMismatch(back.segment(), 0, 11);
      check(what + ": every byte of " + Hex.bytes(length) + " arrived"
          + (mismatch < 0 ? "" : " (first mismatch at " + mismatch + ")"), mismatch < 0);
    }
  }

  private void require(String what, Optional<CudaError> error) {
    check(what + error.map(e -> ": " + e.describe()).orElse(""), error.isEmpty());
  }

  private void check(String what, boolean passed) {
    say((passed ? "ok   " : "FAIL ") + what);
    if (!passed) {
      failures.add(what);
    }
  }

  private static String describe(RegistrationOutcome outcome) {
    return switch (outcome) {
      case RegistrationOutcome.Registered r -> outcome.backend() + ": registered "
          + r.registration().describe();
      case RegistrationOutcome.Failed f -> outcome.backend() + ": " + f.diagnosis().summary();
      case RegistrationOutcome.Skipped s -> outcome.backend() + ": skipped "
          + s.diagnosis().summary();
    };
  }

  private static void say(String line) {
    System.out.println(line);
  }
}
