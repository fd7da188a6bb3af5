package io.kvfleet.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.kvfleet.engine.internal.Libc;
import io.kvfleet.engine.internal.ProcMaps;
import io.kvfleet.engine.internal.SharedMapping;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * An inference worker hands over a POSIX shared-memory object by name: the engine maps it, every
 * backend registers the mapping, and the mapping lives until the last registration ends.
 */
class SharedMemoryRegionTest {
  private static final long SIZE = 1 << 20;
  private final String name = "/kvfleet-test-" + ProcessHandle.current().pid();
  private Engine engine;

  @BeforeEach
  void createTheObject() {
    Libc.Result fd = Libc.shmOpen(name, Libc.O_RDWR | Libc.O_CREAT | Libc.O_EXCL, 0600);
    assertThat(fd.failed()).as(fd.describe()).isFalse();
    assertThat(Libc.ftruncate((int) fd.value(), SIZE).failed()).isFalse();
    Libc.close((int) fd.value());
    engine = Engine.open(EngineConfig.defaults().withBackends("ucx", "host"));
  }

  @AfterEach
  void removeIt() {
    engine.close();
    Libc.shmUnlink(name);
  }

  @Test
  void registersTheObjectWithEveryBackendAndLetsItGoAfterTheLastDeregistration() throws Exception {
    RegistrationResult result = engine.register(RegionRequest.sharedMemory("kv-shm", name, 4096, 8192));

    assertThat(result.failures()).isEmpty();
    assertThat(result.registrations()).isNotEmpty().allSatisfy(registration ->
        assertThat(registration.length()).isEqualTo(8192));
    long address = result.registrations().getFirst().address();
    assertThat(ProcMaps.problemWith(address, 8192)).isEmpty();
    assertThat(mapsOfTheObject()).isNotEmpty();
    result.registrations().forEach(engine::deregister);
    assertThat(mapsOfTheObject()).as("the object's mappings after the last deregistration").isEmpty();
  }

  /**
   * A peer that attached the region's key may still put bytes at its address after the worker released it
   * (UCX 1.13 serves a put to a cached key unchecked). Unmapped, that write killed the agent with SIGSEGV in
   * UCX's progress; now it lands in private pages, and not in the object the worker took back.
   */
  @Test
  void aWriteAtAReleasedRegionsAddressNeitherFaultsNorReachesTheObject() {
    RegistrationResult result = engine.register(RegionRequest.sharedMemory("kv-shm", name, 0, SIZE));
    long address = result.registrations().getFirst().address();
    result.registrations().forEach(engine::deregister);

    MemorySegment.ofAddress(address).reinterpret(SIZE).fill((byte) 7); // a crash of the test JVM before

    var reopened = (SharedMapping.Mapped) SharedMapping.open(name);
    try (var mapping = reopened.mapping()) {
      var object = MemorySegment.ofAddress(mapping.address()).reinterpret(SIZE);
      assertThat(object.get(ValueLayout.JAVA_BYTE, 0)).isZero();
      assertThat(object.get(ValueLayout.JAVA_BYTE, SIZE - 1)).isZero();
    }
  }

  private List<String> mapsOfTheObject() throws java.io.IOException {
    return java.nio.file.Files.readAllLines(java.nio.file.Path.of("/proc/self/maps")).stream()
        .filter(line -> line.endsWith(name) || line.contains(name + " ")).toList();
  }

  @Test
  void bytesWrittenIntoTheRegistrationLandInTheObject() {
    try (Engine writer = Engine.open(EngineConfig.defaults().withBackends("host"))) {
      Registration target = engine.register(RegionRequest.sharedMemory("kv-shm", name, 0, SIZE))
          .registration("host").orElseThrow();
      HostMemory source = writer.allocate("source", SIZE);
      BackendContract.fill(source.segment(), 9);
      Registration from = writer.register(RegionRequest.of(source)).registration("host").orElseThrow();
      Peer peer = writer.connect(engine.address("host"));
      assertThat(peer.write(new TransferBatch().add(from, 0, peer.attach(target.remoteKey()), 0, SIZE))
          .succeeded()).isTrue();

      SharedMapping.Mapped check = (SharedMapping.Mapped) SharedMapping.open(name);
      try (SharedMapping mapping = check.mapping()) {
        MemorySegment seen = MemorySegment.ofAddress(mapping.address()).reinterpret(SIZE);
        assertThat(seen.get(ValueLayout.JAVA_LONG, 8)).isEqualTo(source.segment().get(ValueLayout.JAVA_LONG, 8));
        assertThat(seen.mismatch(source.segment())).isEqualTo(-1);
      }
    }
  }

  @Test
  void aRangePastTheEndOfTheObjectIsAnInvalidAddress() {
    RegistrationResult result = engine.register(RegionRequest.sharedMemory("kv-shm", name, SIZE - 4096, 8192));
    assertThat(result.failures()).isNotEmpty().allSatisfy(failed -> {
      assertThat(failed.reason()).isEqualTo(RegistrationFailure.INVALID_ADDRESS);
      assertThat(failed.detail()).contains("runs past the end of shared memory " + name);
    });
  }
}
