package io.kvfleet.engine.cuda;

import static org.assertj.core.api.Assertions.assertThat;

import io.kvfleet.engine.cuda.internal.CudaStatus;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The probe against the real libcudart on this machine. */
class CudaProbeTest {

  @Test
  void reportsAMissingDriverAsCudaErrorInsufficientDriverWithTheRuntimesOwnMessage() {
    CudaProbe probe = CudaHere.runtimeWithoutDriver();
    assertThat(probe.usable()).isFalse();
    assertThat(probe.devices()).isEmpty();
    assertThat(probe.error()).hasValueSatisfying(error -> {
      assertThat(error.call()).isEqualTo("cudaGetDeviceCount");
      assertThat(error.code()).isEqualTo(35);
      assertThat(error.name()).isEqualTo("cudaErrorInsufficientDriver");
      assertThat(error.message())
          .isEqualTo("CUDA driver version is insufficient for CUDA runtime version");
    });
    assertThat(probe.summary()).contains("no usable GPU", "cudaErrorInsufficientDriver (35)",
        "driver none");
  }

  @Test
  void readsTheRuntimeVersionWithoutADriver() {
    CudaProbe probe = CudaHere.probe();
    assertThat(probe.runtimeVersion()).isGreaterThanOrEqualTo(12000);
    assertThat(probe.library()).startsWith("libcudart.so.");
    assertThat(probe.version()).startsWith("runtime " + CudaProbe.cudaVersion(probe.runtimeVersion()));
  }

  @Test
  void tellsTheOperatorWhichDriverToInstallAndThatNoneIsLoaded() {
    CudaProbe probe = CudaHere.runtimeWithoutDriver();
    assertThat(probe.remediation())
        .contains("install an NVIDIA driver that supports CUDA "
            + CudaProbe.cudaVersion(probe.runtimeVersion()))
        .contains(CudaFailures.minimumDriver(probe.runtimeVersion()))
        .contains("/proc/driver/nvidia/version is absent")
        .contains("-Dkvfleet.cuda.library");
  }

  @Test
  void everyErrorCodeTheEngineReactsToHasTheNameTheRuntimeGivesIt() {
    CudaHere.probe();
    for (Map.Entry<String, Integer> entry : CudaStatus.ALL.entrySet()) {
      assertThat(CudaStatus.name(entry.getValue())).as("code " + entry.getValue())
          .isEqualTo(entry.getKey());
    }
  }

  @Test
  void formatsCudaVersionsTheWayNvidiaSmiDoes() {
    assertThat(CudaProbe.cudaVersion(13000)).isEqualTo("13.0");
    assertThat(CudaProbe.cudaVersion(12080)).isEqualTo("12.8");
    assertThat(CudaProbe.cudaVersion(11040)).isEqualTo("11.4");
  }

  @Test
  void aUsableGpuListsEveryDeviceWithItsNameMemoryAndBus() {
    CudaProbe probe = CudaHere.gpu();
    assertThat(probe.devices()).allSatisfy(device -> {
      assertThat(device.name()).isNotBlank();
      assertThat(device.totalMemory()).isPositive();
      assertThat(device.pciBusId()).matches("[0-9A-Fa-f]{4,8}:[0-9A-Fa-f]{2}:[0-9A-Fa-f]{2}\\.[0-9]");
      assertThat(device.uuid()).startsWith("GPU-");
      assertThat(device.unifiedAddressing()).isTrue();
    });
    assertThat(probe.summary()).contains(probe.devices().getFirst().name());
  }
}
