package io.kvfleet.engine.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.kvfleet.engine.Capability;
import io.kvfleet.engine.Engine;
import io.kvfleet.engine.EngineConfig;
import io.kvfleet.engine.HostMemory;
import io.kvfleet.engine.Peer;
import io.kvfleet.engine.RegionRequest;
import io.kvfleet.engine.Registration;
import io.kvfleet.engine.RemoteKey;
import io.kvfleet.engine.RemoteRegion;
import io.kvfleet.engine.TransferBatch;
import io.kvfleet.engine.TransferResult;
import java.lang.foreign.MemorySegment;
import java.util.HexFormat;
import java.util.Map;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;

/**
 * Process A (a child JVM) registers a region and exports its worker address and remote key;
 * process B (this JVM) connects with exactly those bytes, WRITEs scattered KV pages into it and
 * READs some back; A's checksum of its region must match what B sent.
 */
class TwoProcessTransferTest {
  private static final long MIB = 1024 * 1024;
  private static final long PAGE = 16 * 1024;

  @Test
  void writes256MibOfKvPagesIntoAnotherProcessOverUcxSharedMemory() {
    moveKvPages("ucx", "posix,sysv,cma,self", 256 * MIB);
  }

  @Test
  void writesKvPagesIntoAnotherProcessOverUcxTcp() {
    moveKvPages("ucx", "tcp", 64 * MIB);
  }

  @Test
  void writesKvPagesIntoAnotherProcessThroughTheHostBackend() {
    moveKvPages("host", "", 64 * MIB);
  }

  private void moveKvPages(String backend, String transports, long bytes) {
    EngineConfig config = EngineConfig.defaults().withName("writer").withBackends(backend)
        .withUcxTransports(transports);
    try (Engine engine = Engine.open(config)) {
      Capability capability = engine.capability(backend).orElseThrow();
      assumeTrue(capability.available(), backend + " is not available here: " + capability.detail());
      try (ChildTarget receiver = ChildTarget.start(backend, bytes, transports, false, Map.of())) {
        RemoteKey exported = receiver.key();
        assertThat(exported.backend()).isEqualTo(backend);
        assertThat(exported.address()).isNotZero();
        assertThat(exported.length()).isEqualTo(bytes);
        assertThat(exported.packed()).isNotEmpty();

        HostMemory local = engine.allocate("kv-source", bytes);
        Patterns.fill(local.segment(), 42);
        Registration source = engine.register(RegionRequest.of(local)).registration(backend)
            .orElseThrow();
        Peer peer = engine.connect(receiver.address());
        RemoteRegion remote = peer.attach(exported);

        int pages = (int) (bytes / PAGE);
        TransferBatch batch = new TransferBatch();
        for (int page = 0; page < pages; page++) {
          batch.add(source, page * PAGE, remote, scatter(page, pages) * PAGE, PAGE);
          if (batch.size() == 4096 || page == pages - 1) {
            TransferResult result = peer.write(batch);
            assertThat(result).as("batch ending at page %d over %s", page, peer.path())
                .isInstanceOf(TransferResult.Completed.class);
            batch.clear();
          }
        }
        assertThat(receiver.crc(0, bytes)).isEqualTo(expectedCrc(local.segment(), pages));

        HostMemory readBack = engine.allocate("kv-read-back", 64 * PAGE);
        Registration sink = engine.register(RegionRequest.of(readBack)).registration(backend)
            .orElseThrow();
        TransferBatch reads = new TransferBatch();
        for (int page = 0; page < 64; page++) {
          reads.add(sink, page * PAGE, remote, scatter(page, pages) * PAGE, PAGE);
        }
        assertThat(peer.read(reads).succeeded()).isTrue();
        assertThat(readBack.segment().asByteBuffer())
            .isEqualTo(local.segment().asSlice(0, 64 * PAGE).asByteBuffer());
      }
    }
  }

  /** Page {@code page} of the source goes to this page of the destination (a permutation). */
  static long scatter(long page, long pages) {
    return (page * 7919) % pages;
  }

  /** The CRC of the destination image: destination page j holds the source page that maps to j. */
  private static String expectedCrc(MemorySegment source, int pages) {
    long[] inverse = new long[pages];
    for (int page = 0; page < pages; page++) {
      inverse[(int) scatter(page, pages)] = page;
    }
    CRC32C crc = new CRC32C();
    for (int destination = 0; destination < pages; destination++) {
      crc.update(source.asSlice(inverse[destination] * PAGE, PAGE).asByteBuffer());
    }
    return HexFormat.of().toHexDigits((int) crc.getValue());
  }
}
