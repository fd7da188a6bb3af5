package io.kvfleet.engine.cuda;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kvfleet.engine.Capability;
import io.kvfleet.engine.Engine;
import io.kvfleet.engine.EngineConfig;
import io.kvfleet.engine.HostMemory;
import io.kvfleet.engine.MemoryType;
import io.kvfleet.engine.Peer;
import io.kvfleet.engine.RegionRequest;
import io.kvfleet.engine.Registration;
import io.kvfleet.engine.RemoteRegion;
import io.kvfleet.engine.TransferFailure;
import io.kvfleet.engine.TransferResult;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The staged path over a real transport (the host backend between two engines). Without a GPU the
 * device steps are host copies here; {@code CudaOnGpuTest} and the GPU check run them on CUDA.
 */
class StagedWriteTest {
  private static final long CHUNK = 64 * 1024;
  private static final long TOTAL = 5 * CHUNK / 2;

  private final Arena arena = Arena.ofShared();
  private Engine source;
  private Engine target;
  private HostMemory landingMemory;
  private MemorySegment destination;
  private MemorySegment device;
  private Registration bounce;
  private RemoteRegion landing;
  private Peer peer;

  @BeforeEach
  void connectTwoNodesThroughTheHostBackend() {
    EngineConfig config = EngineConfig.defaults().withBackends("host");
    source = Engine.open(config.withName("prefill"));
    target = Engine.open(config.withName("decode"));
    HostMemory bounceMemory = source.allocate("bounce", CHUNK);
    bounce = source.register(RegionRequest.of(bounceMemory)).registration("host").orElseThrow();
    landingMemory = target.allocate("landing", CHUNK);
    Registration landingRegion =
        target.register(RegionRequest.of(landingMemory)).registration("host").orElseThrow();
    peer = source.connect(target.address("host"));
    landing = peer.attach(landingRegion.remoteKey());
    device = arena.allocate(TOTAL, 4096);
    for (long i = 0; i < TOTAL; i += 8) {
      device.set(ValueLayout.JAVA_LONG, i, i * 0x9E3779B97F4A7C15L + 3);
    }
    destination = arena.allocate(TOTAL + CHUNK, 4096);
  }

  @AfterEach
  void closeNodes() {
    target.close();
    source.close();
    arena.close();
  }

  @Test
  void movesEveryByteChunkByChunkThroughTheTransportAndNamesThePath() {
    List<Long> landed = new java.util.ArrayList<>();
    StagedWrite write = new StagedWrite(peer, bounce, landing, (at, to, length) -> {
      landed.add(to);
      return hostCopy(destination.address() + to, landingMemory.address() + at, length);
    }, StagedWriteTest::hostCopy);
    TransferResult result = write.write(device.address(), CHUNK, TOTAL);
    assertThat(result).isInstanceOfSatisfying(TransferResult.Completed.class, completed -> {
      assertThat(completed.bytes()).isEqualTo(TOTAL);
      assertThat(completed.ops()).isEqualTo(3);
      assertThat(completed.path()).isEqualTo("cuda/staged+host/shm");
    });
    assertThat(landed).containsExactly(CHUNK, 2 * CHUNK, 3 * CHUNK);
    assertThat(destination.asSlice(CHUNK, TOTAL).mismatch(device)).isEqualTo(-1);
    assertThat(destination.asSlice(0, CHUNK).toArray(ValueLayout.JAVA_BYTE)).containsOnly(0);
  }

  @Test
  void aDeviceCopyThatFailsEndsTheWriteWithTheCudaErrorBeforeAnyByteMoves() {
    CudaHere.runtimeWithoutDriver();
    AtomicInteger landings = new AtomicInteger();
    StagedWrite write = new StagedWrite(peer, bounce, landing, (at, to, length) -> {
      landings.incrementAndGet();
      return Optional.empty();
    });
    TransferResult result = write.write(device.address(), 0, TOTAL);
    assertThat(result).isInstanceOfSatisfying(TransferResult.Failed.class, failed -> {
      assertThat(failed.reason()).isEqualTo(TransferFailure.TRANSPORT_ERROR);
      assertThat(failed.nativeCode()).isEqualTo(35);
      assertThat(failed.nativeMessage()).startsWith("cudaErrorInsufficientDriver");
      assertThat(failed.opIndex()).isZero();
      assertThat(failed.path()).isEqualTo("cuda/staged+host/shm");
      assertThat(failed.detail()).contains("chunk 0", "staging", "bounce buffer");
    });
    assertThat(landings).hasValue(0);
    assertThat(landingMemory.segment().toArray(ValueLayout.JAVA_BYTE)).containsOnly(0);
  }

  @Test
  void aLandingThatFailsIsReportedWithItsChunk() {
    CudaError illegal = new CudaError("cudaMemcpy", 700, "cudaErrorIllegalAddress",
        "an illegal memory access was encountered");
    AtomicInteger calls = new AtomicInteger();
    StagedWrite write = new StagedWrite(peer, bounce, landing,
        (at, to, length) -> calls.incrementAndGet() == 2 ? Optional.of(illegal) : Optional.empty(),
        StagedWriteTest::hostCopy);
    TransferResult result = write.write(device.address(), 0, TOTAL);
    assertThat(result).isInstanceOfSatisfying(TransferResult.Failed.class, failed -> {
      assertThat(failed.opIndex()).isEqualTo(1);
      assertThat(failed.nativeCode()).isEqualTo(700);
      assertThat(failed.detail()).contains("chunk 1", "landing", "cudaErrorIllegalAddress");
    });
  }

  @Test
  void aTransportFailureKeepsItsReasonAndSaysWhichChunk() {
    peer.close();
    TransferResult result = new StagedWrite(peer, bounce, landing, (at, to, length) ->
        Optional.empty(), StagedWriteTest::hostCopy).write(device.address(), 0, TOTAL);
    assertThat(result).isInstanceOfSatisfying(TransferResult.Failed.class, failed -> {
      assertThat(failed.reason()).isEqualTo(TransferFailure.PEER_LOST);
      assertThat(failed.detail()).startsWith("chunk 0");
    });
  }

  @Test
  void refusesANullSourceOrAnEmptyLengthBeforeMovingAnything() {
    StagedWrite write = new StagedWrite(peer, bounce, landing, (at, to, length) -> Optional.empty());
    assertThatThrownBy(() -> write.write(0, 0, TOTAL)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> write.write(device.address(), 0, 0))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> write.write(device.address(), -1, TOTAL))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void vramIsStagedExactlyWhenTheTransportCannotRegisterIt() {
    assertThat(StagedWrite.needed(source.capability("host").orElseThrow())).isTrue();
    Capability cudaUcx = new Capability("ucx", true, "1.18", List.of(MemoryType.DRAM,
        MemoryType.VRAM), List.of("rc", "cuda_copy", "cuda_ipc"), true, "");
    assertThat(StagedWrite.needed(cudaUcx)).isFalse();
  }

  private static Optional<CudaError> hostCopy(long to, long from, long length) {
    MemorySegment.copy(MemorySegment.ofAddress(from).reinterpret(length), 0,
        MemorySegment.ofAddress(to).reinterpret(length), 0, length);
    return Optional.empty();
  }
}
