package io.kvfleet.control.dataplane;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.kvfleet.control.protocol.TransferOrder;
import io.kvfleet.engine.Engine;
import io.kvfleet.engine.EngineConfig;
import io.kvfleet.engine.cuda.Cuda;
import io.kvfleet.engine.cuda.CudaCopy;
import io.kvfleet.engine.cuda.DeviceMemory;
import io.kvfleet.events.ByteRange;
import io.kvfleet.events.MemoryType;
import io.kvfleet.events.RegionKind;
import io.kvfleet.events.RegionRegistered;
import io.kvfleet.events.RegionSpec;
import io.kvfleet.events.TransferCompleted;
import io.kvfleet.events.TransferOp;
import io.kvfleet.events.TransferRequested;
import java.lang.foreign.Arena;
import java.lang.foreign.ValueLayout;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The staged path with CUDA itself: cudaMalloc'd VRAM on both ends, pinned buffers, cudaMemcpy. */
class StagedPathOnGpuTest {
  private static final long LENGTH = StagedPath.CHUNK * 3 / 2;

  @Test
  void carriesVramThroughPinnedBuffersOverUcx() {
    assumeTrue(Cuda.libraryError().isEmpty(), () -> "SKIPPED: no CUDA runtime: " + Cuda.libraryError().get());
    assumeTrue(Cuda.probe().usable(), () -> "SKIPPED: needs a GPU: " + Cuda.probe().summary());
    try (var prefill = new EngineDataPlane(Engine.open(EngineConfig.defaults().withName("prefill-0")));
        var decode = new EngineDataPlane(Engine.open(EngineConfig.defaults().withName("decode-0")));
        var source = DeviceMemory.allocate(0, LENGTH);
        var destination = DeviceMemory.allocate(0, LENGTH);
        var arena = Arena.ofConfined()) {
      assumeTrue(prefill.capabilities().stream().anyMatch(c -> c.backend().equals("staged") && c.available()),
          "SKIPPED: the staged path is unavailable (no ucx)");
      var host = arena.allocate(LENGTH, 4096);
      for (long i = 0; i < LENGTH; i += 8) {
        host.set(ValueLayout.JAVA_LONG, i, i * 31 + 5);
      }
      assertThat(CudaCopy.copy(source.address(), host.address(), LENGTH)).isEmpty();
      var from = vram(source.address());
      var to = vram(destination.address());
      prefill.stage("prefill-0", 1, from);
      var key = ((RegionRegistered) decode.stage("decode-0", 1, to).getFirst()).remoteKey();
      var request = new TransferRequested("t-gpu", "prefill-0", 1, "state_data-0", "decode-0", 1, "state_data-0",
          TransferOp.WRITE, List.of(new ByteRange(0, 0, LENGTH)), System.currentTimeMillis() + 60_000, false);

      var done = prefill.transfer(new TransferOrder(request, from, to, Map.of("staged", key),
          decode.transportAddress(), "request-1"), (node, chunk) -> decode.land(chunk));

      assertThat(done).isInstanceOfSatisfying(TransferCompleted.class,
          c -> assertThat(c.path()).startsWith("cuda/staged+ucx/"));
      var back = arena.allocate(LENGTH, 4096);
      assertThat(CudaCopy.copy(back.address(), destination.address(), LENGTH)).isEmpty();
      assertThat(back.mismatch(host)).isEqualTo(-1);
    }
  }

  private static RegionSpec vram(long address) {
    return new RegionSpec("state_data-0", RegionKind.STATE, MemoryType.VRAM, 0, address, LENGTH, 0, "state_data", 0);
  }
}
