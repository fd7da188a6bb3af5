package io.kvfleet.engine.ucx;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.kvfleet.engine.Capability;
import io.kvfleet.engine.Engine;
import io.kvfleet.engine.EngineConfig;
import io.kvfleet.engine.HostMemory;
import io.kvfleet.engine.MemoryType;
import io.kvfleet.engine.RegionRequest;
import io.kvfleet.engine.RegistrationFailure;
import io.kvfleet.engine.RegistrationOutcome;
import io.kvfleet.engine.RegistrationResult;
import io.kvfleet.engine.ucx.internal.Ucp;
import io.kvfleet.engine.ucx.internal.UcsStatus;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The acceptance case: on a UCX without CUDA, VRAM registration is a failure naming the missing
 * memory domain and the transports present, and raw {@code ucp_mem_map} would have said success
 * for the very same request, so the engine's check is what stops it.
 */
class VramThroughUcxTest {
  private static final long LENGTH = 1 << 20;
  private Engine engine;
  private HostMemory pretendDeviceMemory;

  @BeforeEach
  void openUcx() {
    engine = Engine.open(EngineConfig.defaults().withBackends("ucx"));
    Capability ucx = engine.capability("ucx").orElseThrow();
    assumeTrue(ucx.available(), "ucx is not available here: " + ucx.detail());
    assumeTrue(!ucx.memoryTypes().contains(MemoryType.VRAM),
        "this UCX has CUDA support; the case needs one without");
    pretendDeviceMemory = engine.allocate("pretend-vram", LENGTH);
  }

  @AfterEach
  void close() {
    engine.close();
  }

  @Test
  void vramRegistrationFailsNamingTheMissingCudaDomainAndTheTransportsPresent() {
    RegistrationResult result = engine.register(
        RegionRequest.vram("state-L0", 0, pretendDeviceMemory.address(), LENGTH));

    assertThat(result.registered()).isFalse();
    RegistrationOutcome.Failed failed = result.failures().getFirst();
    assertThat(failed.backend()).isEqualTo("ucx");
    assertThat(failed.reason()).isEqualTo(RegistrationFailure.NO_MEMORY_DOMAIN);
    assertThat(failed.detail())
        .contains("this UCX 1.", "has no CUDA memory domain", "memory types: host")
        .contains("transports: self, posix").doesNotContain("cma");
    assertThat(failed.capability().transports()).containsExactly("self", "posix");
    assertThat(failed.capability().detail()).contains("no cuda memory domain");
  }

  @Test
  void withEveryBackendLoadedUcxStillNamesItsOwnMissingDomain() {
    try (Engine all = Engine.open(EngineConfig.defaults())) {
      RegistrationOutcome ucx = all.register(
          RegionRequest.vram("state-L1", 0, pretendDeviceMemory.address(), LENGTH))
          .outcome("ucx").orElseThrow();
      assertThat(ucx).isInstanceOfSatisfying(RegistrationOutcome.Failed.class, failed ->
          assertThat(failed.reason()).isEqualTo(RegistrationFailure.NO_MEMORY_DOMAIN));
    }
  }

  @Test
  void rawUcpMemMapWouldHaveReportedSuccessForTheSameRequest() {
    try (UcpContext context = UcpContext.create("raw-vram-check", "", false)) {
      UcxMemory.Mapped raw = UcxMemory.map(context, pretendDeviceMemory.address(), LENGTH, 0,
          Ucp.MEMORY_TYPE_CUDA);

      assertThat(raw).as("ucp_mem_map(memory_type = UCS_MEMORY_TYPE_CUDA) on this UCX")
          .isInstanceOf(UcxMemory.Ok.class);
      UcxMemory memory = ((UcxMemory.Ok) raw).memory();
      assertThat(memory.memoryType()).as("what ucp_mem_query says it really mapped")
          .isEqualTo(Ucp.MEMORY_TYPE_HOST);
      memory.close();
    }
  }

  @Test
  void rawAllocationOfCudaMemoryMisleadinglyReportsOutOfMemory() {
    try (UcpContext context = UcpContext.create("raw-vram-alloc", "", false)) {
      UcxMemory.Mapped raw = UcxMemory.map(context, 0, 4096, Ucp.MEM_MAP_ALLOCATE,
          Ucp.MEMORY_TYPE_CUDA);
      assertThat(raw).isInstanceOfSatisfying(UcxMemory.Refused.class, refused ->
          assertThat(refused.status()).isEqualTo(UcsStatus.ERR_NO_MEMORY));
    }
  }
}
