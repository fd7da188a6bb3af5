package io.kvfleet.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.kvfleet.engine.internal.Libc;
import io.kvfleet.engine.internal.SharedMapping;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A forged UCX remote key (issue 15, item 1, for UCX): two engines with UCX's default transports,
 * a target that registered part of a worker's shared-memory object, and keys a forger could write
 * into records. Only a range the target's own worker confirms it registered, under exactly that
 * rkey, is ever written; everything else fails {@code NO_GRANT} with the victim's bytes unchanged.
 */
class UcxRegionConfirmationTest {
  private static final long OBJECT = 64 * 1024;
  private static final long OFFSET = 4096;
  private static final long LENGTH = 8192;
  private final String name = "/kvfleet-ucx-confirm-" + ProcessHandle.current().pid();
  private Engine source;
  private Engine target;
  private Registration from;
  private Registration registered;
  private Peer peer;

  @BeforeEach
  void openTwoNodes() {
    source = Engine.open(EngineConfig.defaults().withBackends("ucx").withName("source"));
    Capability ucx = source.capability("ucx").orElseThrow();
    if (!ucx.available()) {
      source.close();
      source = null;
      assumeTrue(false, "UCX is not available here: " + ucx.detail());
    }
    Libc.Result fd = Libc.shmOpen(name, Libc.O_RDWR | Libc.O_CREAT | Libc.O_EXCL, 0600);
    assertThat(fd.failed()).as(fd.describe()).isFalse();
    assertThat(Libc.ftruncate((int) fd.value(), OBJECT).failed()).isFalse();
    Libc.close((int) fd.value());
    target = Engine.open(EngineConfig.defaults().withBackends("ucx").withName("target"));
    registered = target.register(RegionRequest.sharedMemory("kv-shm", name, OFFSET, LENGTH))
        .registration("ucx").orElseThrow();
    HostMemory memory = source.allocate("source-kv", LENGTH);
    BackendContract.fill(memory.segment(), 5);
    from = source.register(RegionRequest.of(memory)).registration("ucx").orElseThrow();
    peer = source.connect(target.address("ucx"));
  }

  @AfterEach
  void closeNodes() {
    if (target != null) {
      target.close();
    }
    if (source != null) {
      source.close();
    }
    Libc.shmUnlink(name);
  }

  @Test
  void writesARegionThePeerRegisteredOverTheDefaultTransports() {
    TransferResult result = peer.write(new TransferBatch().add(from, 0, peer.attach(registered.remoteKey()), 0, LENGTH));

    assertThat(result.succeeded()).as(result.toString()).isTrue();
    assertThat(objectBytes(OFFSET, LENGTH).toArray(java.lang.foreign.ValueLayout.JAVA_BYTE)).isEqualTo(fromBytes());
  }

  @Test
  void refusesAForgedKeyNamingMemoryThePeerDidNotRegister() {
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment victim = arena.allocate(LENGTH); // in the target's process, never registered
      RemoteKey real = registered.remoteKey();
      RemoteKey forged = new RemoteKey("ucx", victim.address(), LENGTH, real.packed());

      TransferResult result = peer.write(new TransferBatch().add(from, 0, peer.attach(forged), 0, LENGTH));

      assertNoGrant(result, "registered no region with this rkey");
      assertThat(victim.toArray(java.lang.foreign.ValueLayout.JAVA_BYTE)).containsOnly(0);
    }
  }

  @Test
  void refusesAForgedKeyClaimingMoreThanThePeerRegistered() {
    RemoteKey real = registered.remoteKey();
    RemoteKey longer = new RemoteKey("ucx", real.address(), OBJECT - OFFSET, real.packed());

    TransferResult result = peer.write(new TransferBatch().add(from, 0, peer.attach(longer), 2 * LENGTH, LENGTH));

    assertNoGrant(result, "registered no region with this rkey");
    assertThat(objectBytes(OFFSET + 2 * LENGTH, LENGTH).toArray(java.lang.foreign.ValueLayout.JAVA_BYTE))
        .containsOnly(0);
  }

  @Test
  void refusesAnRkeyThePeerDidNotMake() {
    try (Engine forger = Engine.open(EngineConfig.defaults().withBackends("ucx").withName("forger"))) {
      HostMemory other = forger.allocate("forger-kv", LENGTH);
      byte[] foreign = forger.register(RegionRequest.of(other)).registration("ucx").orElseThrow()
          .remoteKey().packed();
      RemoteKey forged = new RemoteKey("ucx", registered.address(), LENGTH, foreign);

      TransferResult result = peer.write(new TransferBatch().add(from, 0, peer.attach(forged), 0, LENGTH));

      assertNoGrant(result, "registered no region with this rkey");
      assertThat(objectBytes(OFFSET, LENGTH).toArray(java.lang.foreign.ValueLayout.JAVA_BYTE)).containsOnly(0);
    }
  }

  @Test
  void refusesAKeyOnceThePeerDeregisteredIt() {
    RemoteKey key = registered.remoteKey();
    target.deregister(registered);
    try (Engine writer = Engine.open(EngineConfig.defaults().withBackends("ucx").withName("writer"))) {
      Registration local = writer.register(RegionRequest.of(writer.allocate("w", LENGTH))).registration("ucx").orElseThrow();
      Peer fresh = writer.connect(target.address("ucx"));

      TransferResult result = fresh.write(new TransferBatch().add(local, 0, fresh.attach(key), 0, LENGTH));

      assertNoGrant(result, "registered no region with this rkey");
    }
  }

  private static void assertNoGrant(TransferResult result, String why) {
    assertThat(result).isInstanceOfSatisfying(TransferResult.Failed.class, failed -> {
      assertThat(failed.reason()).isEqualTo(TransferFailure.NO_GRANT);
      assertThat(failed.detail()).contains("did not confirm").contains(why);
    });
  }

  private byte[] fromBytes() {
    return MemorySegment.ofAddress(from.address()).reinterpret(LENGTH).toArray(java.lang.foreign.ValueLayout.JAVA_BYTE);
  }

  private MemorySegment objectBytes(long offset, long length) {
    SharedMapping.Mapped mapped = (SharedMapping.Mapped) SharedMapping.open(name);
    try (SharedMapping mapping = mapped.mapping()) {
      MemorySegment copy = Arena.ofAuto().allocate(length);
      MemorySegment.copy(MemorySegment.ofAddress(mapping.address() + offset).reinterpret(length), 0, copy, 0, length);
      return copy;
    }
  }
}
