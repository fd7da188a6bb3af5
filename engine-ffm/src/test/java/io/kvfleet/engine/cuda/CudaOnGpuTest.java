package io.kvfleet.engine.cuda;

import static org.assertj.core.api.Assertions.assertThat;

import io.kvfleet.engine.Engine;
import io.kvfleet.engine.EngineConfig;
import io.kvfleet.engine.Peer;
import io.kvfleet.engine.RegionRequest;
import io.kvfleet.engine.Registration;
import io.kvfleet.engine.RegistrationFailure;
import io.kvfleet.engine.RegistrationOutcome;
import io.kvfleet.engine.RegistrationOutcome.Failed;
import io.kvfleet.engine.RegistrationResult;
import io.kvfleet.engine.RemoteRegion;
import io.kvfleet.engine.TransferBatch;
import io.kvfleet.engine.TransferResult;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The cuda backend on a real GPU; skipped, saying why, where there is none. */
class CudaOnGpuTest {
  private static final long PAGE = 64 * 1024;
  private static final long REGION = 64 * PAGE;

  private final Arena arena = Arena.ofShared();
  private CudaProbe probe;
  private Engine source;
  private Engine target;
  private DeviceMemory sourceMemory;
  private DeviceMemory targetMemory;

  @BeforeEach
  void openTwoNodesOnTheGpu() {
    probe = CudaHere.gpu();
    sourceMemory = DeviceMemory.allocate(0, REGION);
    targetMemory = DeviceMemory.allocate(0, REGION);
    EngineConfig config = EngineConfig.defaults().withBackends("cuda", "host");
    source = Engine.open(config.withName("prefill"));
    target = Engine.open(config.withName("decode"));
  }

  @AfterEach
  void closeNodesThenFreeTheMemory() {
    if (source != null) {
      target.close();
      source.close();
      sourceMemory.close();
      targetMemory.close();
    }
    arena.close();
  }

  @Test
  void registersDeviceMemoryWithAKeyOtherProcessesCanOpen() {
    RegistrationResult result = source.register(sourceMemory.request("kv-L0"));
    Registration registration = result.registration("cuda").orElseThrow();
    assertThat(registration.address()).isEqualTo(sourceMemory.address());
    CudaKey key = CudaKey.decode(registration.remoteKey().packed());
    assertThat(key.exportable()).as(key.notExportable()).isTrue();
    assertThat(key.pciBusId()).isEqualTo(probe.devices().getFirst().pciBusId());
    assertThat(failed(result.outcome("host").orElseThrow()).reason())
        .isEqualTo(RegistrationFailure.MEMORY_TYPE_UNSUPPORTED);
  }

  @Test
  void refusesAHostPointerLabelledVramAndSaysWhatCudaFound() {
    MemorySegment hostMemory = arena.allocate(PAGE, 4096);
    RegistrationResult result =
        source.register(RegionRequest.vram("state-L0", 0, hostMemory.address(), PAGE));
    Failed cuda = failed(result.outcome("cuda").orElseThrow());
    assertThat(cuda.reason()).isEqualTo(RegistrationFailure.INVALID_ADDRESS);
    assertThat(cuda.detail()).contains("invalid device pointer", "cudaMemoryTypeUnregistered",
        "attributes found");
    assertThat(result.registered()).isFalse();
  }

  @Test
  void refusesARangeThatRunsPastItsAllocation() {
    Failed cuda = failed(source.register(RegionRequest.vram("kv-long", 0,
        sourceMemory.address() + REGION - PAGE, 2 * PAGE)).outcome("cuda").orElseThrow());
    assertThat(cuda.reason()).isEqualTo(RegistrationFailure.INVALID_ADDRESS);
    assertThat(cuda.detail()).contains("invalid device pointer");
  }

  @Test
  void refusesAGpuThatIsNotThereWithTheRuntimesError() {
    int absent = probe.devices().size();
    Failed cuda = failed(source.register(RegionRequest.vram("kv-L0", absent,
        sourceMemory.address(), PAGE)).outcome("cuda").orElseThrow());
    assertThat(cuda.reason()).isEqualTo(RegistrationFailure.DEVICE_UNAVAILABLE);
    assertThat(cuda.nativeMessage()).startsWith("cudaErrorInvalidDevice");
    assertThat(cuda.detail()).contains("device " + absent + " is not present");
  }

  @Test
  void writesScatteredPagesDeviceToDeviceAndReadsThemBack() {
    Registration local = source.register(sourceMemory.request("kv-src")).registration("cuda")
        .orElseThrow();
    Registration far = target.register(targetMemory.request("kv-dst")).registration("cuda")
        .orElseThrow();
    MemorySegment pattern = arena.allocate(REGION, 4096);
    Patterns.fill(pattern, 5);
    assertThat(CudaCopy.copy(sourceMemory.address(), pattern.address(), REGION)).isEmpty();
    try (Peer peer = source.connect(target.address("cuda"))) {
      RemoteRegion remote = peer.attach(far.remoteKey());
      TransferBatch batch = new TransferBatch();
      for (int page = 0; page < 64; page++) {
        batch.add(local, page * PAGE, remote, ((page * 37) % 64) * PAGE, PAGE);
      }
      TransferResult written = peer.write(batch);
      assertThat(written).isInstanceOfSatisfying(TransferResult.Completed.class, completed -> {
        assertThat(completed.bytes()).isEqualTo(REGION);
        assertThat(completed.path()).isEqualTo("cuda/d2d");
      });
      MemorySegment back = IpcExporterMain.read(arena, targetMemory.address(), REGION);
      for (int page = 0; page < 64; page++) {
        assertThat(back.asSlice(((page * 37) % 64) * PAGE, PAGE).mismatch(
            pattern.asSlice(page * PAGE, PAGE))).isEqualTo(-1);
      }
      assertThat(CudaCopy.fill(sourceMemory.address(), 0, REGION)).isEmpty();
      assertThat(peer.read(new TransferBatch().add(local, 0, remote, 0, REGION)).succeeded())
          .isTrue();
      assertThat(IpcExporterMain.read(arena, sourceMemory.address(), REGION).mismatch(back))
          .isEqualTo(-1);
    }
  }

  @Test
  void stagesDeviceMemoryThroughPinnedHostBuffersToThePeersDevice() {
    MemorySegment pattern = arena.allocate(REGION, 4096);
    Patterns.fill(pattern, 9);
    assertThat(CudaCopy.copy(sourceMemory.address(), pattern.address(), REGION)).isEmpty();
    try (PinnedHostMemory bounce = PinnedHostMemory.allocate(4 * PAGE);
        PinnedHostMemory landing = PinnedHostMemory.allocate(4 * PAGE)) {
      Registration bounceRegion = source.register(bounce.request("bounce")).registration("host")
          .orElseThrow();
      Registration landingRegion = target.register(landing.request("landing"))
          .registration("host").orElseThrow();
      try (Peer peer = source.connect(target.address("host"))) {
        StagedWrite write = new StagedWrite(peer, bounceRegion, peer.attach(landingRegion.remoteKey()),
            StagedWrite.intoDevice(landing.address(), targetMemory.address()));
        TransferResult result = write.write(sourceMemory.address(), 0, REGION);
        assertThat(result).isInstanceOfSatisfying(TransferResult.Completed.class, completed -> {
          assertThat(completed.path()).isEqualTo("cuda/staged+host/shm");
          assertThat(completed.ops()).isEqualTo(16);
        });
      }
      source.deregister(bounceRegion);
      target.deregister(landingRegion);
    }
    assertThat(IpcExporterMain.read(arena, targetMemory.address(), REGION).mismatch(pattern))
        .isEqualTo(-1);
  }

  @Test
  void importsAnotherProcesssBufferFromItsIpcHandle() throws Exception {
    try (IpcExporterMain.Child worker = IpcExporterMain.Child.worker(REGION, 31)) {
      Registration imported = target.register(worker.handle().request("worker-kv", 0, REGION))
          .registration("cuda").orElseThrow();
      assertThat(Patterns.firstMismatch(
          IpcExporterMain.read(arena, imported.address(), REGION), 0, 31)).isEqualTo(-1);
      MemorySegment mine = arena.allocate(REGION, 4096);
      Patterns.fill(mine, 32);
      assertThat(CudaCopy.copy(imported.address(), mine.address(), REGION)).isEmpty();
      assertThat(worker.verify(32)).isEqualTo("verified");
      target.deregister(imported);
    }
  }

  @Test
  void writesIntoAnotherProcesssEngineThroughTheIpcHandleInItsKey() throws Exception {
    Registration local = source.register(sourceMemory.request("kv-src")).registration("cuda")
        .orElseThrow();
    MemorySegment pattern = arena.allocate(REGION, 4096);
    Patterns.fill(pattern, 13);
    assertThat(CudaCopy.copy(sourceMemory.address(), pattern.address(), REGION)).isEmpty();
    try (IpcExporterMain.Child node = IpcExporterMain.Child.engine(REGION, 0);
        Peer peer = source.connect(node.address())) {
      assertThat(peer.path()).isEqualTo("cuda/d2d+ipc");
      RemoteRegion remote = peer.attach(node.key());
      assertThat(CudaKey.decode(node.key().packed()).offset()).isEqualTo(IpcExporterMain.ENGINE_OFFSET);
      TransferResult written = peer.write(new TransferBatch().add(local, 0, remote, 0, REGION));
      assertThat(written.succeeded()).as(written.toString()).isTrue();
      assertThat(node.verify(13)).isEqualTo("verified");
    }
  }

  private static Failed failed(RegistrationOutcome outcome) {
    assertThat(outcome).isInstanceOf(Failed.class);
    return (Failed) outcome;
  }
}
