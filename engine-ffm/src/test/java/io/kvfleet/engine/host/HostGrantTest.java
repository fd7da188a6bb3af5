package io.kvfleet.engine.host;

import static org.assertj.core.api.Assertions.assertThat;

import io.kvfleet.engine.Engine;
import io.kvfleet.engine.EngineConfig;
import io.kvfleet.engine.HostMemory;
import io.kvfleet.engine.Peer;
import io.kvfleet.engine.RegionRequest;
import io.kvfleet.engine.Registration;
import io.kvfleet.engine.RegistrationFailure;
import io.kvfleet.engine.RegistrationOutcome;
import io.kvfleet.engine.RemoteKey;
import io.kvfleet.engine.RemoteRegion;
import io.kvfleet.engine.TransferBatch;
import io.kvfleet.engine.TransferFailure;
import io.kvfleet.engine.TransferResult;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.StandardOpenOption;
import java.util.HexFormat;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A host peer reaches only what a grant of that peer covers: keys naming anything else, a grant
 * taken back, or a grant its owner shrank fail {@code NO_GRANT} with nothing moved and the engine
 * alive; registration makes a grant and deregistration removes it.
 */
class HostGrantTest {
  private static final long LENGTH = 64 * 1024;

  private Engine source;
  private Engine target;
  private HostMemory local;
  private HostMemory remoteMemory;
  private Registration from;
  private Registration to;
  private Peer peer;

  @BeforeEach
  void twoHostEngines() {
    EngineConfig config = EngineConfig.defaults().withBackends("host");
    source = Engine.open(config.withName("grant-source"));
    target = Engine.open(config.withName("grant-target"));
    local = source.allocate("local", LENGTH);
    remoteMemory = target.allocate("remote", LENGTH);
    local.segment().fill((byte) 0x11);
    remoteMemory.segment().fill((byte) 0x22);
    from = source.register(RegionRequest.of(local)).registration("host").orElseThrow();
    to = target.register(RegionRequest.of(remoteMemory)).registration("host").orElseThrow();
    peer = source.connect(target.address("host"));
  }

  @AfterEach
  void close() {
    source.close();
    target.close();
  }

  @Test
  void aRegistrationIsAGrantAndItsKeyNamesNoPid() {
    HostKey key = HostKey.decode(to.remoteKey().packed());
    assertThat(Grants.isGrantName(key.grant())).isTrue();
    assertThat(Files.isRegularFile(Grants.path(key.grant()))).isTrue();
    assertThat(key.offset()).isZero();
    assertThat(key.length()).isEqualTo(LENGTH);
    assertThat(write(peer.attach(to.remoteKey()))).isInstanceOf(TransferResult.Completed.class);
    assertThat(remoteMemory.segment().get(java.lang.foreign.ValueLayout.JAVA_BYTE, 0)).isEqualTo((byte) 0x11);
  }

  @Test
  void aKeyInTheOldPidAndAddressFormIsRefused() {
    byte[] old = java.nio.ByteBuffer.allocate(20).putInt((int) ProcessHandle.current().pid())
        .putLong(remoteMemory.address()).putLong(LENGTH).array();
    assertNoGrant(new RemoteKey("host", remoteMemory.address(), LENGTH, old), "host key");
  }

  @Test
  void aKeyNamingAnotherPeersGrantOrAnyOtherObjectIsRefused() {
    HostKey real = HostKey.decode(to.remoteKey().packed());
    String otherToken = Grants.newName(Grants.newToken());
    assertNoGrant(key(otherToken, 0, LENGTH), "is not a grant of this peer");
    assertNoGrant(key("../../proc/self/mem", 0, LENGTH), "is not a grant of this peer");
    assertNoGrant(key(real.grant().substring(0, 30) + "0".repeat(16), 0, LENGTH), "cannot be opened");
  }

  @Test
  void aKeyClaimingMoreThanItsGrantCoversIsRefused() {
    HostKey real = HostKey.decode(to.remoteKey().packed());
    assertNoGrant(new RemoteKey("host", remoteMemory.address(), 2 * LENGTH,
        new HostKey(real.grant(), 0, LENGTH).encode()), "its grant covers " + LENGTH);
    assertNoGrant(key(real.grant(), 4096, LENGTH), "the range needs " + (LENGTH + 4096));
  }

  @Test
  void aGrantTakenBackByDeregistrationIsRefusedOnTheNextBatch() {
    RemoteRegion remote = peer.attach(to.remoteKey());
    assertThat(write(remote).succeeded()).isTrue();
    String grant = HostKey.decode(to.remoteKey().packed()).grant();
    target.deregister(to);
    assertThat(Files.exists(Grants.path(grant))).isFalse();
    remoteMemory.segment().fill((byte) 0x22);
    TransferResult result = write(remote);
    assertThat(result).isInstanceOfSatisfying(TransferResult.Failed.class, f -> {
      assertThat(f.reason()).isEqualTo(TransferFailure.NO_GRANT);
      assertThat(f.detail()).contains("the region was deregistered");
    });
    assertThat(remoteMemory.segment().get(java.lang.foreign.ValueLayout.JAVA_BYTE, 0)).isEqualTo((byte) 0x22);
  }

  @Test
  void aGrantItsOwnerShrankIsRefusedBeforeAByteMoves() throws IOException {
    RemoteRegion remote = peer.attach(to.remoteKey());
    assertThat(write(remote).succeeded()).isTrue();
    String grant = HostKey.decode(to.remoteKey().packed()).grant();
    try (FileChannel channel = FileChannel.open(Grants.path(grant), StandardOpenOption.WRITE)) {
      channel.truncate(4096); // the owner's own pages past 4096 are gone: nobody touches them here
    }
    TransferResult result = write(remote);
    assertThat(result).isInstanceOfSatisfying(TransferResult.Failed.class, f -> {
      assertThat(f.reason()).isEqualTo(TransferFailure.NO_GRANT);
      assertThat(f.detail()).contains("shrank to 4096 bytes");
    });
  }

  @Test
  void memoryTheHostBackendDidNotAllocateIsNotGrantedButShmObjectsAre() throws IOException {
    try (Arena arena = Arena.ofConfined()) {
      var outside = arena.allocate(LENGTH, 4096);
      target.admit("pinned", outside.address(), LENGTH);
      RegistrationOutcome outcome = target.register(RegionRequest.dram("pinned", outside.address(), LENGTH))
          .outcome("host").orElseThrow();
      assertThat(outcome).isInstanceOfSatisfying(RegistrationOutcome.Skipped.class, s ->
          assertThat(s.reason()).isEqualTo(RegistrationFailure.NOT_GRANTABLE));
    }
    String shm = "kvfleet-test-shm-" + HexFormat.of().toHexDigits(Grants.newToken());
    try (FileChannel channel = FileChannel.open(Grants.DIRECTORY.resolve(shm), StandardOpenOption.CREATE_NEW,
        StandardOpenOption.WRITE)) {
      channel.write(java.nio.ByteBuffer.allocate(1), LENGTH - 1);
    }
    try {
      Registration shared = target.register(RegionRequest.sharedMemory("shm", "/" + shm, 0, LENGTH))
          .registration("host").orElseThrow();
      String grant = HostKey.decode(shared.remoteKey().packed()).grant();
      assertThat(Files.isSameFile(Grants.path(grant), Grants.DIRECTORY.resolve(shm))).isTrue();
      assertThat(write(peer.attach(shared.remoteKey())).succeeded()).isTrue();
      target.deregister(shared);
      assertThat(Files.exists(Grants.path(grant))).isFalse();
    } finally {
      Files.deleteIfExists(Grants.DIRECTORY.resolve(shm));
    }
  }

  private TransferResult write(RemoteRegion remote) {
    return peer.write(new TransferBatch().add(from, 0, remote, 0, 4096));
  }

  private void assertNoGrant(RemoteKey key, String why) {
    remoteMemory.segment().fill((byte) 0x22);
    TransferResult result = write(peer.attach(key));
    assertThat(result).isInstanceOfSatisfying(TransferResult.Failed.class, f -> {
      assertThat(f.reason()).isEqualTo(TransferFailure.NO_GRANT);
      assertThat(f.detail()).contains(why);
    });
    assertThat(remoteMemory.segment().get(java.lang.foreign.ValueLayout.JAVA_BYTE, 0)).isEqualTo((byte) 0x22);
  }

  private RemoteKey key(String grant, long offset, long length) {
    return new RemoteKey("host", remoteMemory.address(), length, new HostKey(grant, offset, length).encode());
  }
}
