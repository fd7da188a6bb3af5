package io.kvfleet.control.dataplane;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.kvfleet.engine.Engine;
import io.kvfleet.engine.EngineConfig;
import io.kvfleet.engine.cuda.Cuda;
import io.kvfleet.events.FleetEvent;
import io.kvfleet.events.MemoryType;
import io.kvfleet.events.ReasonCodes;
import io.kvfleet.events.RegionKind;
import io.kvfleet.events.RegionRegistered;
import io.kvfleet.events.RegionSpec;
import io.kvfleet.events.RegistrationFailed;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** How the engine's data plane reads a worker's CUDA IPC handles. */
class EngineDataPlaneTest {
  private static final RegionSpec STATE = new RegionSpec("state_data-0", RegionKind.STATE, MemoryType.VRAM, 0, 0,
      1 << 20, 0, "state_data", 0);

  private final EngineDataPlane plane = new EngineDataPlane(Engine.open(EngineConfig.defaults().withName("p-0")));

  @AfterEach
  void close() {
    plane.close();
  }

  @Test
  void refusesAMalformedCudaIpcHandleWithAnEventNotAnException() {
    List<FleetEvent> outcome = plane.register("p-0", 1, STATE, "cuda-ipc:not base64!");

    assertThat(outcome).singleElement().isInstanceOfSatisfying(RegistrationFailed.class, f -> {
      assertThat(f.backend()).isEqualTo("cuda");
      assertThat(f.reason()).isEqualTo(ReasonCodes.INVALID_ADDRESS);
      assertThat(f.detail()).contains("state_data-0", "malformed CUDA IPC handle");
      assertThat(f.remediation()).contains("cudaIpcGetMemHandle");
    });
  }

  @Test
  void refusesARegionIdAlreadyRegisteredAndReleasesTheFirstOnDeregistering() {
    {
      var first = plane.allocate("first", 1 << 16);
      var second = plane.allocate("second", 1 << 16);

      List<FleetEvent> registered = plane.register("p-0", 1, kv(first), "");
      List<FleetEvent> again = plane.register("p-0", 1, kv(second), "");

      assertThat(registered).isNotEmpty().allSatisfy(e -> assertThat(e).isInstanceOf(RegionRegistered.class));
      assertThat(again).hasSameSizeAs(registered).allSatisfy(e -> assertThat(e).isInstanceOfSatisfying(
          RegistrationFailed.class, f -> {
            assertThat(f.reason()).isEqualTo(ReasonCodes.DUPLICATE_REGISTRATION);
            assertThat(f.detail()).contains("kv_data-0 is already registered with " + f.backend());
          }));
      assertThat(plane.deregister("p-0", 1, "kv_data-0")).hasSameSizeAs(registered);
      assertThat(plane.register("p-0", 1, kv(second), ""))
          .allSatisfy(e -> assertThat(e).isInstanceOf(RegionRegistered.class));
      plane.deregister("p-0", 1, "kv_data-0");
    }
  }

  private static RegionSpec kv(MemorySegment memory) {
    return new RegionSpec("kv_data-0", RegionKind.KV, MemoryType.DRAM, -1, memory.address(), memory.byteSize(), 4096,
        "kv_data", 0);
  }

  @Test
  void opensAWellFormedHandleWithCudaAndReportsCudasAnswer() {
    assumeTrue(Cuda.libraryError().isEmpty(), () -> "SKIPPED: no CUDA runtime: " + Cuda.libraryError().get());
    String handle = Base64.getEncoder().encodeToString(new byte[64]); // the size of a cudaIpcMemHandle_t

    List<FleetEvent> outcome = plane.register("p-0", 1, STATE, "cuda-ipc:" + handle);

    // No exporting process stands behind these bytes: CUDA refuses them (or has no driver here).
    assertThat(outcome).filteredOn(e -> e instanceof RegistrationFailed f && f.backend().equals("cuda"))
        .singleElement().satisfies(e -> assertThat(((RegistrationFailed) e).nativeCode()).isNotZero());
  }
}
