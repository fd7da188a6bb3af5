package io.kvfleet.control.dataplane;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.kvfleet.control.protocol.TransferOrder;
import io.kvfleet.control.protocol.StagedChunk;
import io.kvfleet.control.protocol.Landings;
import io.kvfleet.control.testing.HostStaging;
import io.kvfleet.engine.Engine;
import io.kvfleet.engine.EngineConfig;
import io.kvfleet.events.BackendCapability;
import io.kvfleet.events.ByteRange;
import io.kvfleet.events.FleetEvent;
import io.kvfleet.events.MemoryType;
import io.kvfleet.events.ReasonCodes;
import io.kvfleet.events.RegionKind;
import io.kvfleet.events.RegionRegistered;
import io.kvfleet.events.RegionSpec;
import io.kvfleet.events.RegistrationFailed;
import io.kvfleet.events.TransferCompleted;
import io.kvfleet.events.TransferFailed;
import io.kvfleet.events.TransferOp;
import io.kvfleet.events.TransferRequested;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The staged path between two real engines over real ucx; the device copies are host copies
 * ({@link HostStaging}), the one part that needs a GPU. The destination's landings are called
 * directly here; {@code StagedTransferIT} sends them between agents over the EventBus.
 */
class StagedPathTest {
  private static final long LENGTH = StagedPath.CHUNK * 5 / 2; // three chunks, the last one half

  private final Arena arena = Arena.ofShared();
  private EngineDataPlane prefill;
  private EngineDataPlane decode;
  private MemorySegment source;
  private MemorySegment destination;
  private RegionSpec sourceSpec;
  private RegionSpec destinationSpec;
  private String destinationKey;

  @BeforeEach
  void stageOneVramRegionOnEachNode() {
    prefill = new EngineDataPlane(Engine.open(EngineConfig.defaults().withName("prefill-0")), new HostStaging());
    decode = new EngineDataPlane(Engine.open(EngineConfig.defaults().withName("decode-0")), new HostStaging());
    assumeTrue(prefill.capabilities().stream().anyMatch(c -> c.backend().equals("ucx") && c.available()),
        "SKIPPED: UCX is not loaded on this machine; the staged path sends through it");
    source = prefill.allocate("source", LENGTH);
    destination = decode.allocate("destination", LENGTH);
    for (long i = 0; i < LENGTH; i += 8) {
      source.set(ValueLayout.JAVA_LONG, i, i * 0x9E3779B97F4A7C15L + 7);
    }
    sourceSpec = vram("state_data-0", source);
    destinationSpec = vram("state_data-0", destination);
    assertThat(prefill.stage("prefill-0", 3, sourceSpec)).singleElement().isInstanceOf(RegionRegistered.class);
    var staged = (RegionRegistered) decode.stage("decode-0", 2, destinationSpec).getFirst();
    assertThat(staged.backend()).isEqualTo("staged");
    destinationKey = staged.remoteKey();
  }

  @AfterEach
  void close() {
    if (prefill != null) {
      prefill.close();
      decode.close();
    }
    arena.close();
  }

  @Test
  void offersTheStagedPathAsACapabilityForVram() {
    assertThat(prefill.capabilities()).filteredOn(c -> c.backend().equals("staged")).singleElement()
        .satisfies(c -> {
          assertThat(c.available()).isTrue();
          assertThat(c.memoryTypes()).containsExactly(MemoryType.VRAM);
          assertThat(c.detail()).contains("hostcopy", "ucx");
        });
  }

  @Test
  void movesStagedMemoryChunkByChunkAndSaysSoInThePath() {
    var done = prefill.transfer(order(TransferOp.WRITE, new ByteRange(0, 0, LENGTH)), this::landAtDecode);

    assertThat(done).isInstanceOf(TransferCompleted.class);
    var completed = (TransferCompleted) done;
    assertThat(completed.bytes()).isEqualTo(LENGTH);
    assertThat(completed.path()).startsWith("hostcopy/staged+ucx/");
    assertThat(completed.checksum()).isEqualTo(crc(source));
    assertThat(destination.mismatch(source)).isEqualTo(-1);
  }

  @Test
  void aChunkThatLandedOnlyOnceTheLeaseCouldHaveRunOutEndsTheTransferLandedAfterLease() {
    var done = prefill.transfer(order(TransferOp.WRITE, new ByteRange(0, 0, LENGTH)), this::landAtDecode,
        fence(true, () -> destination.get(ValueLayout.JAVA_LONG, StagedPath.CHUNK) == 0)); // late from chunk 2 on

    assertThat(done).isInstanceOfSatisfying(TransferFailed.class, f -> {
      assertThat(f.reason()).isEqualTo(ReasonCodes.LANDED_AFTER_LEASE);
      assertThat(LandedLate.bytes(f)).as("the second chunk").isEqualTo(StagedPath.CHUNK);
      assertThat(f.detail()).contains("chunk at source offset " + StagedPath.CHUNK,
          StagedPath.CHUNK + " B before them landed in time");
    });
    assertThat(destination.get(ValueLayout.JAVA_LONG, 2 * StagedPath.CHUNK)).as("the third chunk").isZero();
  }

  @Test
  void sendsNoChunkWhileTheLeaseIsNotProven() {
    var done = prefill.transfer(order(TransferOp.WRITE, new ByteRange(0, 0, LENGTH)), this::landAtDecode,
        fence(false, () -> true));

    assertThat(done).isInstanceOfSatisfying(TransferFailed.class,
        f -> assertThat(f.reason()).isEqualTo(ReasonCodes.LEASE_UNPROVEN));
    assertThat(destination.get(ValueLayout.JAVA_LONG, 0)).isZero();
  }

  private static Fence fence(boolean mayGoOn, java.util.function.BooleanSupplier inTime) {
    return new Fence() {
      @Override
      public boolean mayGoOn() {
        return mayGoOn;
      }

      @Override
      public boolean landedInTime(long deadlineMillis) {
        return inTime.getAsBoolean();
      }
    };
  }

  @Test
  void landsAtTheOffsetsTheRangesName() {
    long page = 4096;
    var done = prefill.transfer(order(TransferOp.WRITE, new ByteRange(page, 3 * page, 2 * page)), this::landAtDecode);

    assertThat(done).isInstanceOf(TransferCompleted.class);
    assertThat(destination.asSlice(3 * page, 2 * page).mismatch(source.asSlice(page, 2 * page))).isEqualTo(-1);
    assertThat(destination.get(ValueLayout.JAVA_LONG, 0)).isZero();
  }

  @Test
  void failsARangeBeyondTheStagedSourceBeforeReadingIt() {
    var beyond = prefill.transfer(order(TransferOp.WRITE, new ByteRange(LENGTH - 4096, 0, 8192)), this::landAtDecode);
    var wrapping = prefill.transfer(order(TransferOp.WRITE, new ByteRange(Long.MAX_VALUE - 100, 0, 4096)),
        this::landAtDecode);
    var secondBeyond = prefill.transfer(order(TransferOp.WRITE, new ByteRange(0, 0, 4096),
        new ByteRange(LENGTH, 4096, 4096)), this::landAtDecode);

    for (var done : List.of(beyond, wrapping, secondBeyond)) {
      assertThat(done).isInstanceOfSatisfying(TransferFailed.class, f -> {
        assertThat(f.reason()).isEqualTo(ReasonCodes.OUT_OF_BOUNDS);
        assertThat(f.detail()).contains("exceeds source state_data-0");
      });
    }
    assertThat(destination.get(ValueLayout.JAVA_LONG, 0)).as("not even the first, valid range").isZero();
  }

  @Test
  void refusesAChunkForARegionNotStagedThere() {
    var refused = decode.land(new StagedChunk("t", "prefill-0", "x", "y", 0, "kv_data-9", 0, 4096));

    assertThat(refused).hasValueSatisfying(r -> {
      assertThat(r.reason()).isEqualTo(ReasonCodes.UNKNOWN_REGION);
      assertThat(r.detail()).contains("kv_data-9", "state_data-0");
    });
  }

  @Test
  void refusesAChunkBeyondTheRegion() {
    var refused = decode.land(new StagedChunk("t", "prefill-0", "x", "y", 0, "state_data-0", LENGTH - 4096, 8192));

    assertThat(refused).hasValueSatisfying(r -> assertThat(r.reason()).isEqualTo(ReasonCodes.OUT_OF_BOUNDS));
  }

  @Test
  void refusesAChunkWhoseOffsetWouldOverflowPastTheRegion() {
    var refused = decode.land(new StagedChunk("t", "prefill-0", "x", "y", 0, "state_data-0", Long.MAX_VALUE - 100, 4096));

    assertThat(refused).hasValueSatisfying(r -> assertThat(r.reason()).isEqualTo(ReasonCodes.OUT_OF_BOUNDS));
  }

  @Test
  void failsTheTransferWithTheDestinationsReasonWhenALandingIsRefused() {
    var done = prefill.transfer(order(TransferOp.WRITE, new ByteRange(0, 0, 4096)), (node, chunk) ->
        Optional.of(new Landings.Refused(ReasonCodes.TRANSPORT_ERROR, 700, "cudaErrorIllegalAddress")));

    assertThat(done).isInstanceOfSatisfying(TransferFailed.class, f -> {
      assertThat(f.reason()).isEqualTo(ReasonCodes.TRANSPORT_ERROR);
      assertThat(f.nativeCode()).isEqualTo(700);
      assertThat(f.detail()).contains("chunk at source offset 0", "cudaErrorIllegalAddress");
    });
  }

  @Test
  void runsWriteTransfersOnly() {
    var done = prefill.transfer(order(TransferOp.READ, new ByteRange(0, 0, 4096)), this::landAtDecode);

    assertThat(done).isInstanceOfSatisfying(TransferFailed.class, f -> {
      assertThat(f.reason()).isEqualTo(ReasonCodes.NOT_EXPOSED);
      assertThat(f.detail()).contains("WRITE transfers only");
    });
  }

  @Test
  void withdrawsAStagedRegionWhenTheWorkerDeregistersIt() {
    List<FleetEvent> events = decode.deregister("decode-0", 2, "state_data-0");

    assertThat(events).singleElement().satisfies(e -> assertThat(e.toString()).contains("staged"));
    assertThat(decode.land(new StagedChunk("t", "prefill-0", "x", "y", 0, "state_data-0", 0, 4096)))
        .hasValueSatisfying(r -> assertThat(r.reason()).isEqualTo(ReasonCodes.UNKNOWN_REGION));
  }

  @Test
  void saysWhyARegionCannotBeStagedWhereStagingCannotRun() {
    try (var plane = new EngineDataPlane(Engine.open(EngineConfig.defaults().withName("cpu-0")), new NoDevice())) {
      var outcome = plane.stage("cpu-0", 1, sourceSpec);

      assertThat(outcome).singleElement().isInstanceOfSatisfying(RegistrationFailed.class, f -> {
        assertThat(f.backend()).isEqualTo("staged");
        assertThat(f.reason()).isEqualTo(ReasonCodes.BACKEND_UNAVAILABLE);
        assertThat(f.detail()).isEqualTo("no GPU in this test");
        assertThat(f.remediation()).contains("driver");
      });
      assertThat(plane.capabilities()).filteredOn(c -> c.backend().equals("staged"))
          .singleElement().extracting(BackendCapability::available).isEqualTo(false);
    }
  }

  private Optional<Landings.Refused> landAtDecode(String node, StagedChunk chunk) {
    assertThat(node).isEqualTo("decode-0");
    return decode.land(chunk);
  }

  private TransferOrder order(TransferOp op, ByteRange... ranges) {
    var request = new TransferRequested("t-1", "prefill-0", 3, "state_data-0", "decode-0", 2, "state_data-0", op,
        List.of(ranges), System.currentTimeMillis() + 60_000, true);
    return new TransferOrder(request, sourceSpec, destinationSpec, Map.of("staged", destinationKey),
        decode.transportAddress(), "request-1");
  }

  private static RegionSpec vram(String id, MemorySegment memory) {
    return new RegionSpec(id, RegionKind.STATE, MemoryType.VRAM, 0, memory.address(), memory.byteSize(), 0,
        "state_data", 0);
  }

  private static String crc(MemorySegment memory) {
    var crc = new CRC32C();
    crc.update(memory.asByteBuffer());
    return HexFormat.of().toHexDigits((int) crc.getValue());
  }

  /** Staging that cannot run, as on a node without a GPU. */
  private static final class NoDevice implements Staging {
    @Override
    public String name() {
      return "none";
    }

    @Override
    public Optional<String> unavailable() {
      return Optional.of("no GPU in this test");
    }

    @Override
    public Buffer allocate(long length) {
      throw new AssertionError("nothing is staged without a device");
    }

    @Override
    public Optional<CopyError> copy(long destination, long source, long length) {
      throw new AssertionError("nothing is staged without a device");
    }
  }
}
