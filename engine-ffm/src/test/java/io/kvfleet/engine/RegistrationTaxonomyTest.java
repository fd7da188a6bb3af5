package io.kvfleet.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.kvfleet.engine.RegistrationOutcome.Failed;
import io.kvfleet.engine.RegistrationOutcome.Skipped;
import io.kvfleet.engine.internal.Libc;
import io.kvfleet.engine.testing.ThreadCapabilities;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Every registration failure reason, each produced for real on this machine. */
class RegistrationTaxonomyTest {
  private static final long MIB = 1024 * 1024;

  private Engine engine;
  private HostMemory memory;

  @BeforeEach
  void openEngine() {
    engine = Engine.open(EngineConfig.defaults().withBackends("ucx", "host"));
    memory = engine.allocate("taxonomy", 64 * MIB);
  }

  @AfterEach
  void closeEngine() {
    engine.close();
  }

  @Test
  void vramIsAMemoryTypeTheHostBackendDoesNotSupport() {
    Failed host = failed(RegionRequest.vram("kv-L0", 0, memory.address(), MIB), "host");
    assertThat(host.reason()).isEqualTo(RegistrationFailure.MEMORY_TYPE_UNSUPPORTED);
    assertThat(host.detail()).contains("DRAM only");
  }

  @Test
  void vramThroughUcxWithoutCudaLacksAMemoryDomainAndNamesTheTransportsPresent() {
    assumeUcx();
    Failed ucx = failed(RegionRequest.vram("state-0", 0, memory.address(), MIB), "ucx");
    assertThat(ucx.reason()).isEqualTo(RegistrationFailure.NO_MEMORY_DOMAIN);
    assertThat(ucx.detail()).contains("no CUDA memory domain", "posix");
    assertThat(ucx.capability().transports()).contains("posix").doesNotContain("cma", "tcp", "sysv");
    assertThat(ucx.remediation()).contains("CUDA support");
  }

  @Test
  void anUnmappedAddressIsInvalid() {
    Failed failed = failed(RegionRequest.dram("hole", BackendContract.unmappedAddress(), 4096), "host");
    assertThat(failed.reason()).isEqualTo(RegistrationFailure.INVALID_ADDRESS);
    assertThat(failed.detail()).contains("not mapped in this process");
  }

  @Test
  void aReadOnlyMappingIsInvalid() {
    Libc.Result readOnly = Libc.mmap(0, 4096, Libc.PROT_READ, Libc.MAP_PRIVATE | Libc.MAP_ANONYMOUS, -1, 0);
    try {
      Failed failed = failed(RegionRequest.dram("ro", readOnly.value(), 4096), "host");
      assertThat(failed.reason()).isEqualTo(RegistrationFailure.INVALID_ADDRESS);
      assertThat(failed.detail()).contains("r--p", "not readable and writable");
    } finally {
      Libc.munmap(readOnly.value(), 4096);
    }
  }

  @Test
  void aSharedMemoryNameThatDoesNotExistIsInvalid() {
    Failed failed = failed(RegionRequest.sharedMemory("shm", "/kvfleet-no-such-object", 0, 4096), "host");
    assertThat(failed.reason()).isEqualTo(RegistrationFailure.INVALID_ADDRESS);
    assertThat(failed.nativeCode()).isEqualTo(Libc.ENOENT);
    assertThat(failed.nativeMessage()).isEqualTo("No such file or directory");
  }

  @Test
  void aNullAddressOrZeroLengthIsSkippedNotFailed() {
    RegistrationResult result = engine.register(RegionRequest.dram("aux-3", 0, 0));
    assertThat(result.skips()).hasSize(2).allSatisfy(skipped ->
        assertThat(skipped.reason()).as("a null entry, whatever its length").isEqualTo(RegistrationFailure.NULL_ADDRESS));
    assertThat(result.failures()).isEmpty();
  }

  @Test
  void aZeroLengthAtARealAddressIsSkippedAsZeroLength() {
    RegistrationResult result = engine.register(RegionRequest.dram("aux-4", memory.address(), 0));
    assertThat(result.skips()).isNotEmpty().allSatisfy(skipped -> {
      assertThat(skipped.reason()).isEqualTo(RegistrationFailure.ZERO_LENGTH);
      assertThat(skipped.diagnosis().detail()).contains("zero length");
    });
  }

  @Test
  void anEmptySharedMemoryNameIsANullEntry() {
    RegistrationResult result = engine.register(RegionRequest.sharedMemory("aux-5", "", 0, 4096));
    assertThat(result.skips()).isNotEmpty().allSatisfy(skipped ->
        assertThat(skipped.reason()).isEqualTo(RegistrationFailure.NULL_ADDRESS));
  }

  @Test
  void aNumaNodeThatIsAbsentIsAnUnavailableDevice() {
    Failed failed = failed(RegionRequest.of(memory).onDevice(63), "host");
    assertThat(failed.reason()).isEqualTo(RegistrationFailure.DEVICE_UNAVAILABLE);
    assertThat(failed.detail()).contains("NUMA node 63 is not present");
  }

  @Test
  void anAllocationTheKernelCannotBackIsOutOfMemory() {
    try (Engine host = Engine.open(EngineConfig.defaults().withBackends("host"))) {
      assertThatThrownBy(() -> host.allocate("huge", 1L << 42))
          .isInstanceOfSatisfying(EngineException.class, e -> {
            Diagnosis diagnosis = e.diagnosis().orElseThrow();
            assertThat(diagnosis.reason()).isEqualTo(RegistrationFailure.OUT_OF_MEMORY);
            // the host backend reserves the pages of its shared-memory object up front
            assertThat(diagnosis.nativeCode()).isIn((long) Libc.ENOMEM, (long) Libc.ENOSPC);
            assertThat(diagnosis.detail()).contains("posix_fallocate");
          });
    }
  }

  @Test
  void aUcxAllocationBeyondAvailableMemoryIsRefusedBeforeUcxFillsDevShm() {
    assumeUcx();
    try (Engine ucx = Engine.open(EngineConfig.defaults().withBackends("ucx"))) {
      assertThatThrownBy(() -> ucx.allocate("huge", 1L << 42))
          .isInstanceOfSatisfying(EngineException.class, e ->
              assertThat(e.diagnosis().orElseThrow().reason())
                  .isEqualTo(RegistrationFailure.OUT_OF_MEMORY));
    }
  }

  @Test
  void pinningPastTheMemlockLimitIsOutOfMemory() {
    long soft = Libc.getrlimit(Libc.RLIMIT_MEMLOCK)[0];
    assumeTrue(soft != -1 && soft < 64 * MIB,
        "RLIMIT_MEMLOCK is " + soft + ": pinning 64 MiB cannot exceed it here");
    Runnable register = () -> {
      Failed failed = failed(RegionRequest.of(memory).pinned(), "host");
      assertThat(failed.reason()).isEqualTo(RegistrationFailure.OUT_OF_MEMORY);
      assertThat(failed.nativeCode()).isIn((long) Libc.ENOMEM, (long) Libc.EPERM, (long) Libc.EAGAIN);
      assertThat(failed.detail()).contains("mlock", "RLIMIT_MEMLOCK");
    };
    if (ThreadCapabilities.effective(ThreadCapabilities.CAP_IPC_LOCK)) {
      ThreadCapabilities.without(ThreadCapabilities.CAP_IPC_LOCK, register); // root ignores the limit
    } else {
      register.run();
    }
  }

  @Test
  void pinnedRegistrationSucceedsWithinTheLimit() {
    RegistrationResult result = engine.register(
        RegionRequest.dram("pinned", memory.address(), 1024 * 1024).pinned());
    assertThat(result.registered()).isTrue();
    result.registrations().forEach(engine::deregister);
  }

  @Test
  void anExactDuplicateIsRefusedByEveryBackend() {
    engine.register(RegionRequest.of(memory));
    RegistrationResult again = engine.register(RegionRequest.of(memory));
    assertThat(again.failures()).isNotEmpty().allSatisfy(failed ->
        assertThat(failed.reason()).isEqualTo(RegistrationFailure.DUPLICATE_REGISTRATION));
  }

  @Test
  void aNamedRegionWhoseIdIsLiveIsRefusedWholeAtOtherMemoryTooAndFreeAgainOnceReleased() {
    long half = memory.length() / 2;
    RegistrationResult first = engine.registerNamed(RegionRequest.dram("kv-L0", memory.address(), half));
    RegistrationResult again = engine.registerNamed(RegionRequest.dram("kv-L0", memory.address() + half, half));

    assertThat(first.registered()).isTrue();
    assertThat(again.registered()).isFalse();
    assertThat(again.failures()).hasSameSizeAs(first.registrations()).allSatisfy(failed -> {
      assertThat(failed.reason()).isEqualTo(RegistrationFailure.DUPLICATE_REGISTRATION);
      assertThat(failed.diagnosis().detail()).isEqualTo("kv-L0 is already registered with " + failed.backend()
          + " on this node");
      assertThat(failed.diagnosis().remediation()).contains("deregister kv-L0 first");
    });
    assertThat(engine.registrations("kv-L0")).containsExactlyInAnyOrderElementsOf(first.registrations());

    first.registrations().forEach(engine::deregister);
    assertThat(engine.registrations("kv-L0")).isEmpty();
    RegistrationResult afterRelease = engine.registerNamed(RegionRequest.dram("kv-L0", memory.address() + half, half));
    assertThat(afterRelease.registered()).isTrue();
    afterRelease.registrations().forEach(engine::deregister);
  }

  @Test
  void aPlainRegistrationTreatsItsIdAsALabelAndRefusesOnlyMemoryHeldAlready() {
    long half = memory.length() / 2;
    RegistrationResult first = engine.register(RegionRequest.dram("scratch", memory.address(), half));
    RegistrationResult other = engine.register(RegionRequest.dram("scratch", memory.address() + half, half));
    RegistrationResult overlapping = engine.register(RegionRequest.dram("elsewhere", memory.address(), half));

    assertThat(first.registered()).isTrue();
    assertThat(other.registered()).isTrue();
    assertThat(overlapping.failures()).isNotEmpty().allSatisfy(failed ->
        assertThat(failed.reason()).isEqualTo(RegistrationFailure.DUPLICATE_REGISTRATION));
    assertThat(engine.registrations("scratch")).hasSize(first.registrations().size() + other.registrations().size());
    first.registrations().forEach(engine::deregister);
    other.registrations().forEach(engine::deregister);
  }

  @Test
  void aNativeErrorOutsideTheTaxonomyIsABackendErrorWithItsCode() throws IOException {
    Path directory = Path.of("/dev/shm/kvfleet-taxonomy-" + ProcessHandle.current().pid());
    Files.createDirectories(directory);
    try {
      Failed failed = failed(RegionRequest.sharedMemory(
          "dir", "/" + directory.getFileName(), 0, 4096), "host");
      assertThat(failed.reason()).isEqualTo(RegistrationFailure.BACKEND_ERROR);
      assertThat(failed.nativeCode()).isEqualTo(Libc.EINVAL);
      assertThat(failed.detail()).contains("shm_open");
    } finally {
      Files.delete(directory);
    }
  }

  @Test
  void aBackendWithoutAProviderIsSkippedAsUnavailable() {
    try (Engine partial = Engine.open(EngineConfig.defaults().withBackends("host", "rdma"))) {
      Skipped skipped = (Skipped) partial.register(RegionRequest.dram("kv", memory.address(), 4096))
          .outcome("rdma").orElseThrow();
      assertThat(skipped.reason()).isEqualTo(RegistrationFailure.BACKEND_UNAVAILABLE);
      assertThat(skipped.diagnosis().detail()).contains("no provider named rdma");
    }
  }

  private Failed failed(RegionRequest request, String backend) {
    RegistrationOutcome outcome = engine.register(request).outcome(backend).orElseThrow();
    assertThat(outcome).isInstanceOf(Failed.class);
    return (Failed) outcome;
  }

  private void assumeUcx() {
    Capability ucx = engine.capability("ucx").orElseThrow();
    assumeTrue(ucx.available(), "ucx is not available here: " + ucx.detail());
  }
}
