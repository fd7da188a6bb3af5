package io.kvfleet.engine.cuda;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kvfleet.engine.EngineException;
import io.kvfleet.engine.RegistrationFailure;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.List;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;

/**
 * Bad arguments are refused before any native call: each would otherwise reach CUDA, which on this
 * machine answers with error 35, so an {@link IllegalArgumentException} proves no call was made.
 */
class CudaArgumentsTest {

  @Test
  void refusesANegativeDeviceAndAnEmptyAllocationBeforeCallingCuda() {
    assertThatThrownBy(() -> DeviceMemory.allocate(-1, 4096))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("device");
    assertThatThrownBy(() -> DeviceMemory.allocate(0, 0))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("length");
    assertThatThrownBy(() -> PinnedHostMemory.allocate(-5))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("length");
  }

  @Test
  void refusesNullPointersAndEmptyCopiesBeforeCallingCuda() {
    assertThatThrownBy(() -> CudaCopy.copy(0, 4096, 16))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("null pointer");
    assertThatThrownBy(() -> CudaCopy.copy(4096, 8192, 0))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("length");
    assertThatThrownBy(() -> CudaCopy.fill(0, 0, 16))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> HostPin.pin(0, 4096))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> IpcHandle.export(0))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void refusesAnIpcHandleOfTheWrongSize() {
    assertThatThrownBy(() -> new IpcHandle(new byte[63]))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("64 bytes, got 63");
    assertThatThrownBy(() -> ImportedMemory.open(new IpcHandle(new byte[64]), -1))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void anAllocationThatReachesCudaWithoutADriverFailsWithItsDiagnosis() {
    CudaHere.runtimeWithoutDriver();
    assertThatThrownBy(() -> DeviceMemory.allocate(0, 1 << 20))
        .isInstanceOfSatisfying(EngineException.class, e -> {
          assertThat(e.nativeCode()).isEqualTo(35);
          assertThat(e.diagnosis()).hasValueSatisfying(d -> {
            assertThat(d.reason()).isEqualTo(RegistrationFailure.DEVICE_UNAVAILABLE);
            assertThat(d.nativeMessage()).startsWith("cudaErrorInsufficientDriver");
            assertThat(d.remediation()).contains("install an NVIDIA driver");
          });
        })
        .hasMessageContaining("device memory on GPU 0");
  }

  @Test
  void everyOtherBuildingBlockThatReachesCudaWithoutADriverSaysSo() {
    CudaHere.runtimeWithoutDriver();
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment host = arena.allocate(4096, 4096);
      List<ThrowingCallable> calls = List.of(
          () -> PinnedHostMemory.allocate(4096),
          () -> HostPin.pin(host.address(), 4096),
          () -> IpcHandle.export(host.address()),
          () -> ImportedMemory.open(new IpcHandle(new byte[64]), 0));
      for (ThrowingCallable call : calls) {
        assertThatThrownBy(call).isInstanceOfSatisfying(EngineException.class,
            e -> assertThat(e.nativeCode()).isEqualTo(35))
            .hasMessageContaining("cudaErrorInsufficientDriver");
      }
      assertThat(CudaCopy.fill(host.address(), 0, 4096)).hasValueSatisfying(error ->
          assertThat(error.code()).isEqualTo(35));
    }
  }

  @Test
  void aCopyThatReachesCudaWithoutADriverIsAnErrorValue() {
    CudaHere.runtimeWithoutDriver();
    assertThat(CudaCopy.copy(4096, 8192, 16)).hasValueSatisfying(error -> {
      assertThat(error.code()).isEqualTo(35);
      assertThat(error.call()).startsWith("cudaMemcpy(");
    });
  }
}
