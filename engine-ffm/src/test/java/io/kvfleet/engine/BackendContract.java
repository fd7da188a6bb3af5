package io.kvfleet.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.kvfleet.engine.RegistrationOutcome.Failed;
import io.kvfleet.engine.RegistrationOutcome.Skipped;
import io.kvfleet.engine.internal.Libc;
import io.kvfleet.engine.internal.ProcMaps;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What every backend must do, run against each one (like Lucene's BaseDirectoryTestCase): two
 * engines in one JVM play two nodes. A backend that is absent here skips visibly.
 */
abstract class BackendContract {
  static final long PAGE = 16 * 1024;
  static final long REGION = 64 * PAGE;

  Engine source;
  Engine target;
  HostMemory sourceMemory;
  HostMemory targetMemory;
  Registration sourceRegion;
  Registration targetRegion;
  Peer peer;
  RemoteRegion remote;

  /** The backend under test. */
  abstract String backend();

  /** How to open the engines. */
  EngineConfig config() {
    return EngineConfig.defaults().withBackends(backend());
  }

  @BeforeEach
  void openTwoNodes() {
    source = Engine.open(config().withName("source"));
    Capability capability = source.capability(backend()).orElseThrow();
    if (!capability.available()) {
      source.close();
      assumeTrue(false, backend() + " is not available here: " + capability.detail());
    }
    target = Engine.open(config().withName("target"));
    sourceMemory = source.allocate("source-kv", REGION);
    targetMemory = target.allocate("target-kv", REGION);
    sourceRegion = source.register(RegionRequest.of(sourceMemory)).registration(backend()).orElseThrow();
    targetRegion = target.register(RegionRequest.of(targetMemory)).registration(backend()).orElseThrow();
    peer = source.connect(target.address(backend()));
    remote = peer.attach(RemoteKey.fromBytes(targetRegion.remoteKey().toBytes()));
  }

  @AfterEach
  void closeNodes() {
    if (target != null) {
      target.close();
    }
    if (source != null) {
      source.close();
    }
  }

  @Test
  void registersAllocatedMemoryWithARemoteKeyForPeers() {
    assertThat(targetRegion.remoteKey().backend()).isEqualTo(backend());
    assertThat(targetRegion.remoteKey().address()).isEqualTo(targetMemory.address());
    assertThat(targetRegion.remoteKey().length()).isEqualTo(REGION);
    assertThat(targetRegion.remoteKey().packed()).isNotEmpty();
  }

  @Test
  void writesScatteredPagesIntoThePeerAndReadsThemBack() {
    fill(sourceMemory.segment(), 7);
    TransferBatch batch = new TransferBatch();
    for (int page = 0; page < 64; page++) {
      batch.add(sourceRegion, page * PAGE, remote, ((page * 37) % 64) * PAGE, PAGE);
    }
    TransferResult written = peer.write(batch);
    assertThat(written).isInstanceOf(TransferResult.Completed.class);
    assertThat(((TransferResult.Completed) written).bytes()).isEqualTo(REGION);
    assertThat(((TransferResult.Completed) written).path()).startsWith(backend() + "/");
    for (int page = 0; page < 64; page++) {
      assertThat(slice(targetMemory, ((page * 37) % 64) * PAGE))
          .isEqualTo(slice(sourceMemory, page * PAGE));
    }
    sourceMemory.segment().fill((byte) 0);
    TransferResult read = peer.read(new TransferBatch().add(sourceRegion, 0, remote, 0, REGION));
    assertThat(read.succeeded()).isTrue();
    assertThat(slice(sourceMemory, 0)).isEqualTo(slice(targetMemory, 0));
  }

  @Test
  void refusesAnOpPastTheEndOfTheLocalRegionBeforeTouchingMemory() {
    TransferResult result = peer.write(new TransferBatch()
        .add(sourceRegion, 0, remote, 0, PAGE)
        .add(sourceRegion, REGION - PAGE + 1, remote, 0, PAGE));
    assertThat(result).isInstanceOfSatisfying(TransferResult.Failed.class, failed -> {
      assertThat(failed.reason()).isEqualTo(TransferFailure.OUT_OF_BOUNDS);
      assertThat(failed.opIndex()).isEqualTo(1);
      assertThat(failed.detail()).contains("local range");
    });
  }

  @Test
  void refusesAnOpPastTheEndOfTheRemoteRegion() {
    TransferResult result = peer.write(new TransferBatch().add(sourceRegion, 0, remote, REGION, 1));
    assertThat(result).isInstanceOfSatisfying(TransferResult.Failed.class, failed ->
        assertThat(failed.reason()).isEqualTo(TransferFailure.OUT_OF_BOUNDS));
  }

  @Test
  void refusesATransferFromADeregisteredRegion() {
    source.deregister(sourceRegion);
    TransferResult result = peer.write(new TransferBatch().add(sourceRegion, 0, remote, 0, PAGE));
    assertThat(result).isInstanceOfSatisfying(TransferResult.Failed.class, failed ->
        assertThat(failed.reason()).isEqualTo(TransferFailure.UNKNOWN_REGION));
  }

  @Test
  void refusesABatchPostedAgainAfterItsLocalRegionWasDeregistered() {
    TransferBatch batch = new TransferBatch().add(sourceRegion, 0, remote, 0, PAGE);
    assertThat(peer.write(batch).succeeded()).isTrue();
    source.deregister(sourceRegion);
    assertThat(peer.write(batch)).isInstanceOfSatisfying(TransferResult.Failed.class, failed -> {
      assertThat(failed.reason()).isEqualTo(TransferFailure.UNKNOWN_REGION);
      assertThat(failed.opIndex()).isZero();
    });
  }

  @Test
  void refusesABatchPostedAgainAfterItsRemoteRegionWasClosed() {
    TransferBatch batch = new TransferBatch().add(sourceRegion, 0, remote, 0, PAGE);
    assertThat(peer.write(batch).succeeded()).isTrue();
    remote.close();
    assertThat(peer.write(batch)).isInstanceOfSatisfying(TransferResult.Failed.class, failed ->
        assertThat(failed.reason()).isEqualTo(TransferFailure.UNKNOWN_REGION));
  }

  @Test
  void checksABatchAgainWhenItChanges() {
    TransferBatch batch = new TransferBatch().add(sourceRegion, 0, remote, 0, PAGE);
    assertThat(peer.write(batch).succeeded()).isTrue();
    batch.add(sourceRegion, REGION, remote, 0, PAGE);
    assertThat(peer.write(batch)).isInstanceOfSatisfying(TransferResult.Failed.class, failed ->
        assertThat(failed.reason()).isEqualTo(TransferFailure.OUT_OF_BOUNDS));
  }

  @Test
  void failsABatchOnAClosedPeerWithoutTouchingMemory() {
    peer.close();
    TransferResult result = peer.write(new TransferBatch().add(sourceRegion, 0, remote, 0, PAGE));
    assertThat(result).isInstanceOfSatisfying(TransferResult.Failed.class, failed ->
        assertThat(failed.reason()).isEqualTo(TransferFailure.PEER_LOST));
  }

  @Test
  void skipsANullAddressAndAZeroLength() {
    var expected = java.util.Map.of(RegionRequest.dram("null", 0, PAGE), RegistrationFailure.NULL_ADDRESS,
        RegionRequest.dram("empty", sourceMemory.address(), 0), RegistrationFailure.ZERO_LENGTH);
    expected.forEach((request, reason) -> {
      RegistrationOutcome outcome = source.register(request).outcome(backend()).orElseThrow();
      assertThat(outcome).isInstanceOfSatisfying(Skipped.class, skipped ->
          assertThat(skipped.reason()).as(request.regionId()).isEqualTo(reason));
    });
  }

  @Test
  void refusesAnAddressThatIsNotMapped() {
    long hole = unmappedAddress();
    Failed failed = failure(RegionRequest.dram("hole", hole, PAGE));
    assertThat(failed.reason()).isEqualTo(RegistrationFailure.INVALID_ADDRESS);
    assertThat(failed.detail()).contains("0x" + Long.toHexString(hole)).contains("not mapped");
  }

  @Test
  void refusesARangeThatRunsPastItsMapping() {
    Failed failed = failure(RegionRequest.dram("long", unmappedAddress() - Libc.pageSize(),
        2 * Libc.pageSize()));
    assertThat(failed.reason()).isEqualTo(RegistrationFailure.INVALID_ADDRESS);
  }

  @Test
  void refusesAnOverlappingRegistrationAndNamesTheExistingRegion() {
    Failed failed = failure(RegionRequest.dram("overlap", sourceMemory.address() + PAGE, PAGE));
    assertThat(failed.reason()).isEqualTo(RegistrationFailure.DUPLICATE_REGISTRATION);
    assertThat(failed.detail()).contains("source-kv");
  }

  @Test
  void refusesMappedMemoryTheEngineDidNotAllocateForRegistration() {
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment external = arena.allocate(REGION, 4096);
      Failed failed = failure(RegionRequest.dram("external", external.address(), REGION));
      assertThat(failed.reason()).isEqualTo(RegistrationFailure.NOT_AGENT_MEMORY);
      assertThat(failed.detail()).contains("not in a buffer the engine allocated for registration");
    }
  }

  @Test
  void refusesTheJavaHeapOfTheEngine() {
    long heap = ProcMaps.read().stream()
        .filter(m -> m.perms().startsWith("rw") && m.end() - m.start() >= REGION
            && m.name().isEmpty())
        .mapToLong(ProcMaps.Mapping::start).findFirst().orElseThrow();
    Failed failed = failure(RegionRequest.dram("heap", heap, PAGE));
    assertThat(failed.reason()).isEqualTo(RegistrationFailure.NOT_AGENT_MEMORY);
  }

  @Test
  void deregistersTwiceWithoutComplaint() {
    source.deregister(sourceRegion);
    source.deregister(sourceRegion);
    assertThat(sourceRegion.isLive()).isFalse();
  }

  @Test
  void refusesToFreeMemoryThatIsStillRegistered() {
    assertThatThrownBy(sourceMemory::close)
        .isInstanceOf(EngineException.class)
        .hasMessageContaining("still has 1 live registration");
    source.deregister(sourceRegion);
    sourceMemory.close();
    assertThatThrownBy(() -> sourceMemory.segment().get(ValueLayout.JAVA_BYTE, 0))
        .isInstanceOf(IllegalStateException.class);
  }

  @Test
  void exportsAnAddressAPeerCanParse() {
    WorkerAddress address = target.address(backend());
    assertThat(WorkerAddress.fromBase64(address.toBase64())).isEqualTo(address);
    assertThat(RemoteKey.fromBase64(targetRegion.remoteKey().toBase64()))
        .isEqualTo(targetRegion.remoteKey());
  }

  /** From 16 TiB up, 1 MiB apart: far below the mmap area near the top, far above the heap. */
  private static final java.util.concurrent.atomic.AtomicLong HOLE_HINTS =
      new java.util.concurrent.atomic.AtomicLong(1L << 44);

  Failed failure(RegionRequest request) {
    RegistrationOutcome outcome = source.register(request).outcome(backend()).orElseThrow();
    assertThat(outcome).isInstanceOf(Failed.class);
    return (Failed) outcome;
  }

  /**
   * A page just past a mapped one, unmapped. Each pair is placed at its own address far from where
   * other mappings go (a hint, which the kernel takes when the range is free), so that no mmap of
   * the JVM, glibc or UCX fills the hole before the test reads it: the kernel hands out the highest
   * free gap first, and a hole near the top was filled once on CI, between the unmap and the check.
   */
  static long unmappedAddress() {
    long page = Libc.pageSize();
    Libc.Result mapped = Libc.mmap(HOLE_HINTS.getAndAdd(1 << 20), 2 * page, Libc.PROT_READ | Libc.PROT_WRITE,
        Libc.MAP_PRIVATE | Libc.MAP_ANONYMOUS, -1, 0);
    assertThat(mapped.failed()).isFalse(); // where the kernel ignores the hint, the pair lands as before
    Libc.munmap(mapped.value() + page, page);
    return mapped.value() + page;
  }

  static void fill(MemorySegment segment, int seed) {
    for (long i = 0; i < segment.byteSize(); i += 8) {
      segment.set(ValueLayout.JAVA_LONG_UNALIGNED, i, i * 0x9E3779B97F4A7C15L + seed);
    }
  }

  static byte[] slice(HostMemory memory, long offset) {
    return memory.segment().asSlice(offset, PAGE).toArray(ValueLayout.JAVA_BYTE);
  }
}
