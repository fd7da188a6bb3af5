package io.kvfleet.control.dataplane;

import static org.assertj.core.api.Assertions.assertThat;

import io.kvfleet.control.protocol.Landings;
import io.kvfleet.control.protocol.TransferOrder;
import io.kvfleet.engine.Engine;
import io.kvfleet.engine.EngineConfig;
import io.kvfleet.events.ByteRange;
import io.kvfleet.events.FleetEvent;
import io.kvfleet.events.MemoryType;
import io.kvfleet.events.ReasonCodes;
import io.kvfleet.events.RegionKind;
import io.kvfleet.events.RegionRegistered;
import io.kvfleet.events.RegionSpec;
import io.kvfleet.events.TransferCompleted;
import io.kvfleet.events.TransferFailed;
import io.kvfleet.events.TransferOp;
import io.kvfleet.events.TransferRequested;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The native engine's direct path under a {@link Fence}: a batch whose landing the fence cannot
 * prove in time (the source's clocks were past its lease's end or the deadline once it landed) is
 * reported {@code LANDED_AFTER_LEASE} with its bytes, never completed.
 */
class PageFenceTest {
  private static final long LENGTH = 16_384;

  private final EngineDataPlane source = new EngineDataPlane(Engine.open(EngineConfig.defaults().withName("p-0")));
  private final EngineDataPlane destination = new EngineDataPlane(Engine.open(EngineConfig.defaults().withName("d-0")));
  private final MemorySegment from = source.allocate("src", LENGTH);
  private final MemorySegment to = destination.allocate("dst", LENGTH);

  @AfterEach
  void close() {
    source.close();
    destination.close();
  }

  @Test
  void aBatchThatLandedOnlyOnceTheLeaseCouldHaveRunOutIsReportedLandedAfterLease() {
    FleetEvent outcome = source.transfer(order(), Landings.NONE, new Fence() {
      @Override
      public boolean mayGoOn() {
        return true;
      }

      @Override
      public boolean landedInTime(long deadlineMillis) {
        return !landed(); // the clocks jump the moment the bytes are there: a pause after the copy
      }
    });

    assertThat(landed()).as("the bytes did move").isTrue();
    assertThat(outcome).isInstanceOfSatisfying(TransferFailed.class, f -> {
      assertThat(f.reason()).isEqualTo(ReasonCodes.LANDED_AFTER_LEASE);
      assertThat(LandedLate.bytes(f)).isEqualTo(LENGTH);
    });
  }

  @Test
  void noBatchStartsOnceTheSourceReadThatTheFleetEndedItsTransfer() {
    Fence ended = new Fence() {
      @Override
      public boolean mayGoOn() {
        return Fence.UNFENCED.mayGoOn();
      }

      @Override
      public boolean landedInTime(long deadlineMillis) {
        return Fence.UNFENCED.landedInTime(deadlineMillis);
      }

      @Override
      public java.util.Optional<String> endedByFleet() {
        return java.util.Optional.of("transfer.failed PEER_LOST by coordinator-0");
      }
    };

    FleetEvent outcome = source.transfer(order(), Landings.NONE, ended);

    assertThat(outcome).isInstanceOfSatisfying(TransferFailed.class, f -> {
      assertThat(f.reason()).isEqualTo(ReasonCodes.ENDED_BY_FLEET);
      assertThat(LandedLate.sentBeforeEnded(f)).isZero();
    });
    assertThat(landed()).isFalse();
  }

  @Test
  void aBatchProvenInTimeCompletes() {
    assertThat(source.transfer(order(), Landings.NONE, Fence.UNFENCED)).isInstanceOfSatisfying(
        TransferCompleted.class, c -> assertThat(c.bytes()).isEqualTo(LENGTH));
  }

  private boolean landed() {
    return to.get(ValueLayout.JAVA_BYTE, LENGTH - 1) == 7;
  }

  private TransferOrder order() {
    from.fill((byte) 7);
    RegionSpec src = kv("kv-src", from);
    RegionSpec dst = kv("kv-dst", to);
    source.register("p-0", 1, src, "");
    Map<String, String> keys = destination.register("d-0", 1, dst, "").stream()
        .filter(e -> e instanceof RegionRegistered).map(e -> (RegionRegistered) e)
        .collect(Collectors.toMap(RegionRegistered::backend, RegionRegistered::remoteKey));
    var request = new TransferRequested("t-1", "p-0", 1, "kv-src", "d-0", 1, "kv-dst", TransferOp.WRITE,
        List.of(new ByteRange(0, 0, LENGTH)), System.currentTimeMillis() + 30_000, false);
    return new TransferOrder(request, src, dst, keys, destination.transportAddress(), "envelope-1");
  }

  private static RegionSpec kv(String id, MemorySegment memory) {
    return new RegionSpec(id, RegionKind.KV, MemoryType.DRAM, -1, memory.address(), memory.byteSize(), 4096,
        "kv_data", 0);
  }
}
