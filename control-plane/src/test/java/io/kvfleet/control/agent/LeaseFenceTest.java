package io.kvfleet.control.agent;

import static org.assertj.core.api.Assertions.assertThat;

import io.kvfleet.control.dataplane.InProcessDataPlane;
import io.kvfleet.control.dataplane.LandedLate;
import io.kvfleet.control.protocol.Landings;
import io.kvfleet.control.protocol.TransferOrder;
import io.kvfleet.events.ByteRange;
import io.kvfleet.events.FleetEvent;
import io.kvfleet.events.MemoryType;
import io.kvfleet.events.ReasonCodes;
import io.kvfleet.events.RegionKind;
import io.kvfleet.events.RegionSpec;
import io.kvfleet.events.TransferCompleted;
import io.kvfleet.events.TransferFailed;
import io.kvfleet.events.TransferOp;
import io.kvfleet.events.TransferRequested;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A transfer under the agent's lease, on a real data plane (plain memory copies): the clocks jump
 * the moment a page has landed, as a SIGSTOP between the copy and the report would make them, and
 * the outcome must say whether those bytes provably landed before the fleet could have failed it.
 */
class LeaseFenceTest {
  private static final long START = 1_000_000_000L;
  private static final long DEADLINE = 1_800_000_000_000L;

  private final Arena arena = Arena.ofConfined();
  private final InProcessDataPlane source = new InProcessDataPlane();
  private final InProcessDataPlane target = new InProcessDataPlane();
  private final MemorySegment from = arena.allocate(4096, 4096);
  private final MemorySegment to = arena.allocate(4096, 4096);
  private final RegionSpec src = spec(from);
  private final RegionSpec dst = spec(to);

  LeaseFenceTest() {
    from.fill((byte) 1);
    source.register("p-0", 1, src, "");
    target.register("d-0", 1, dst, "");
  }

  @AfterEach
  void close() {
    source.close();
    target.close();
    arena.close();
  }

  @Test
  void theMarginBeforeADeadlineIsOneHeartbeatPeriod() {
    var lease = new Lease(Duration.ofMillis(900), Duration.ofMillis(300), () -> START);

    assertThat(new LeaseFence(lease).deadlineMarginMillis()).isEqualTo(300);
  }

  @Test
  void aPageThatLandedAtTheLeasesEndIsReportedLandedAfterLeaseWithItsBytesNotCompleted() {
    var lease = provenAtStart(() -> landed(2048) ? START + Duration.ofSeconds(3).toNanos() : START);

    FleetEvent outcome = source.transfer(order(new ByteRange(0, 0, 2048), new ByteRange(2048, 2048, 2048)),
        Landings.NONE, new LeaseFence(lease, () -> DEADLINE - 2_000));

    assertThat(outcome).isNotInstanceOf(TransferCompleted.class).isInstanceOfSatisfying(TransferFailed.class, f -> {
      assertThat(f.reason()).isEqualTo(ReasonCodes.LANDED_AFTER_LEASE);
      assertThat(LandedLate.bytes(f)).as("the second page only: the first was proven").isEqualTo(2048);
      assertThat(f.detail()).contains("range", "2048 B before them landed in time");
    });
  }

  @Test
  void aPageThatLandedPastTheMarginButBeforeTheLeasesEndCompletes() {
    var lease = provenAtStart(() -> landed(0) ? START + Duration.ofMillis(2999).toNanos() : START);

    FleetEvent outcome = source.transfer(order(new ByteRange(0, 0, 4096)), Landings.NONE,
        new LeaseFence(lease, () -> DEADLINE - 2_000));

    assertThat(outcome).isInstanceOfSatisfying(TransferCompleted.class, c -> assertThat(c.bytes()).isEqualTo(4096));
  }

  @Test
  void aPageThatLandedAtTheDeadlineIsReportedLandedAfterLease() {
    var lease = provenAtStart(() -> START);

    FleetEvent outcome = source.transfer(order(new ByteRange(0, 0, 4096)), Landings.NONE,
        new LeaseFence(lease, () -> landed(0) ? DEADLINE : DEADLINE - 2_000));

    assertThat(outcome).isInstanceOfSatisfying(TransferFailed.class, f -> {
      assertThat(f.reason()).isEqualTo(ReasonCodes.LANDED_AFTER_LEASE);
      assertThat(LandedLate.bytes(f)).isEqualTo(4096);
    });
  }

  @Test
  void noPageStartsOnceTheAgentReadThatTheFleetEndedTheTransfer() {
    var lease = provenAtStart(() -> START);
    // The agent reads the fleet's failure once the first page has landed.
    java.util.function.Supplier<java.util.Optional<String>> ended = () -> landed(0)
        ? java.util.Optional.of("transfer.failed PEER_LOST by coordinator-0") : java.util.Optional.empty();

    FleetEvent outcome = source.transfer(order(new ByteRange(0, 0, 2048), new ByteRange(2048, 2048, 2048)),
        Landings.NONE, new LeaseFence(lease, () -> DEADLINE - 2_000, ended));

    assertThat(outcome).isInstanceOfSatisfying(TransferFailed.class, f -> {
      assertThat(f.reason()).isEqualTo(ReasonCodes.ENDED_BY_FLEET);
      assertThat(f.detail()).startsWith("2048 B sent before").contains("transfer.failed PEER_LOST by coordinator-0");
      assertThat(LandedLate.sentBeforeEnded(f)).isEqualTo(2048);
    });
    assertThat(landed(2048)).as("the second page").isFalse();
  }

  @Test
  void noPageStartsUnderALeaseNeverProven() {
    var lease = new Lease(Duration.ofSeconds(3), Duration.ofSeconds(1), () -> START);

    FleetEvent outcome = source.transfer(order(new ByteRange(0, 0, 4096)), Landings.NONE,
        new LeaseFence(lease, () -> DEADLINE - 1));

    assertThat(outcome).isInstanceOfSatisfying(TransferFailed.class,
        f -> assertThat(f.reason()).isEqualTo(ReasonCodes.LEASE_UNPROVEN));
    assertThat(landed(0)).isFalse();
  }

  @Test
  void noPageStartsWithinAPagesMarginOfItsDeadline() {
    var lease = provenAtStart(() -> START);

    FleetEvent outcome = source.transfer(order(new ByteRange(0, 0, 4096)), Landings.NONE,
        new LeaseFence(lease, () -> DEADLINE - 500)); // the margin is the 1 s heartbeat

    assertThat(outcome).isInstanceOfSatisfying(TransferFailed.class, f -> {
      assertThat(f.reason()).isEqualTo(ReasonCodes.DEADLINE_PASSED);
      assertThat(f.detail()).contains("less than a page's 1000 ms away");
    });
    assertThat(landed(0)).isFalse();
  }

  @Test
  void aPageStartsWithAPagesMarginToSpareAndCompletes() {
    var lease = provenAtStart(() -> START);

    FleetEvent outcome = source.transfer(order(new ByteRange(0, 0, 4096)), Landings.NONE,
        new LeaseFence(lease, () -> DEADLINE - 1_001));

    assertThat(outcome).isInstanceOf(TransferCompleted.class);
    assertThat(landed(0)).isTrue();
  }

  /** A 3 s lease renewed every second, proven by a heartbeat sent at {@link #START}, on {@code clock}. */
  private static Lease provenAtStart(LongSupplier clock) {
    var lease = new Lease(Duration.ofSeconds(3), Duration.ofSeconds(1), clock);
    lease.acknowledged(START);
    return lease;
  }

  private boolean landed(long offset) {
    return to.get(ValueLayout.JAVA_BYTE, offset) == 1;
  }

  private static RegionSpec spec(MemorySegment memory) {
    return new RegionSpec("kv-0", RegionKind.KV, MemoryType.DRAM, -1, memory.address(), 4096, 4096, "kv", 0);
  }

  private TransferOrder order(ByteRange... ranges) {
    var request = new TransferRequested("t-1", "p-0", 1, "kv-0", "d-0", 1, "kv-0", TransferOp.WRITE,
        List.of(ranges), DEADLINE, false);
    return new TransferOrder(request, src, dst, Map.of(), "", "t-1");
  }
}
