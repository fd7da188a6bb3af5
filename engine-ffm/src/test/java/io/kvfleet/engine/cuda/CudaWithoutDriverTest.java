package io.kvfleet.engine.cuda;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kvfleet.engine.Capability;
import io.kvfleet.engine.Engine;
import io.kvfleet.engine.EngineConfig;
import io.kvfleet.engine.EngineException;
import io.kvfleet.engine.HostMemory;
import io.kvfleet.engine.MemoryType;
import io.kvfleet.engine.RegionRequest;
import io.kvfleet.engine.RegistrationFailure;
import io.kvfleet.engine.RegistrationOutcome;
import io.kvfleet.engine.RegistrationOutcome.Failed;
import io.kvfleet.engine.RegistrationResult;
import io.kvfleet.engine.internal.Hex;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A node with the CUDA runtime but no driver (this project's build machines): the engine opens,
 * says why VRAM is unavailable, and every VRAM registration fails with the real CUDA error.
 */
class CudaWithoutDriverTest {
  private static final long STATE = 1 << 20;

  private Engine engine;
  private HostMemory memory;

  @BeforeEach
  void openEngineWithEveryBackend() {
    CudaHere.runtimeWithoutDriver();
    engine = Engine.open(EngineConfig.defaults().withName("gpu-less"));
    memory = engine.allocate("state-pool", 4 * STATE);
  }

  @AfterEach
  void closeEngine() {
    if (engine != null) {
      engine.close();
    }
  }

  @Test
  void theEngineOpensWithTheOtherBackendsAndItsCapabilitiesSayWhyVramIsUnavailable() {
    assertThat(engine.backends()).contains("host", "cuda");
    Capability cuda = engine.capability("cuda").orElseThrow();
    assertThat(cuda.supports(MemoryType.VRAM)).isFalse();
    assertThat(cuda.memoryTypes()).isEmpty();
    assertThat(cuda.version()).contains("driver none");
    assertThat(cuda.detail()).contains("cudaErrorInsufficientDriver (35)",
        "CUDA driver version is insufficient for CUDA runtime version",
        "VRAM cannot be registered", "install an NVIDIA driver");
    assertThat(engine.capability("host").orElseThrow().supports(MemoryType.DRAM)).isTrue();
  }

  @Test
  void registeringAStateTensorAsVramFailsWithTheCudaErrorNameCodeMessageAndRemedy() {
    long address = memory.address() + STATE;
    RegistrationResult result = engine.register(RegionRequest.vram("state-L3", 0, address, STATE));
    assertThat(result.registered()).isFalse();
    Failed cuda = failed(result.outcome("cuda").orElseThrow());
    assertThat(cuda.backend()).isEqualTo("cuda");
    assertThat(cuda.reason()).isEqualTo(RegistrationFailure.DEVICE_UNAVAILABLE);
    assertThat(cuda.nativeCode()).isEqualTo(35);
    assertThat(cuda.nativeMessage()).isEqualTo(
        "cudaErrorInsufficientDriver: CUDA driver version is insufficient for CUDA runtime version");
    assertThat(cuda.detail()).contains("state-L3", "device 0", Hex.range(address, STATE),
        "cuda backend", "cudaPointerGetAttributes(" + Hex.address(address) + ")");
    assertThat(cuda.remediation()).contains("install an NVIDIA driver", "nvidia-smi");
    assertThat(cuda.capability().supports(MemoryType.VRAM)).isFalse();
  }

  @Test
  void noBackendRegistersTheRegionAndEachSaysWhyInItsOwnTerms() {
    RegistrationResult result = engine.register(
        RegionRequest.vram("state-L4", 0, memory.address(), STATE));
    assertThat(result.registered()).isFalse();
    assertThat(engine.registrations()).isEmpty();
    assertThat(failed(result.outcome("cuda").orElseThrow()).nativeCode()).isEqualTo(35);
    assertThat(failed(result.outcome("host").orElseThrow()).reason())
        .isEqualTo(RegistrationFailure.MEMORY_TYPE_UNSUPPORTED);
    result.outcome("ucx").filter(o -> engine.backends().contains("ucx")).ifPresent(ucx ->
        assertThat(failed(ucx).reason()).isEqualTo(RegistrationFailure.NO_MEMORY_DOMAIN));
  }

  @Test
  void aRegionHandedOverAsACudaIpcHandleFailsTheSameWay() {
    RegionRequest request = new IpcHandle(new byte[64]).request("kv-L0", 0, STATE);
    Failed cuda = failed(engine.register(request).outcome("cuda").orElseThrow());
    assertThat(cuda.reason()).isEqualTo(RegistrationFailure.DEVICE_UNAVAILABLE);
    assertThat(cuda.nativeCode()).isEqualTo(35);
    assertThat(cuda.detail()).contains("kv-L0", "CUDA IPC handle", "cudaSetDevice(0)");
  }

  @Test
  void hostMemoryStillRegistersWhileCudaDeclinesDram() {
    RegistrationResult result = engine.register(RegionRequest.of(memory));
    String host = memory.backend(); // the backend that allocated it registers it (ucx here, else host)
    assertThat(result.registration(host)).isPresent();
    Failed cuda = failed(result.outcome("cuda").orElseThrow());
    assertThat(cuda.reason()).isEqualTo(RegistrationFailure.MEMORY_TYPE_UNSUPPORTED);
    assertThat(cuda.detail()).contains("VRAM only");
    engine.deregister(result.registration(host).orElseThrow());
  }

  @Test
  void connectingThroughCudaFailsWithTheDriverErrorInsteadOfHanging() {
    assertThatThrownBy(() -> engine.connect(engine.address("cuda")))
        .isInstanceOfSatisfying(EngineException.class,
            e -> assertThat(e.nativeCode()).isEqualTo(35))
        .hasMessageContaining("cudaErrorInsufficientDriver");
  }

  private static Failed failed(RegistrationOutcome outcome) {
    assertThat(outcome).isInstanceOf(Failed.class);
    return (Failed) outcome;
  }
}
