package io.kvfleet.control.dataplane;

import static org.assertj.core.api.Assertions.assertThat;

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
import java.lang.foreign.ValueLayout;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The jvm data plane copies only between ranges a jvm data plane of this process registered. */
class InProcessDataPlaneTest {

  @Test
  void copiesBetweenRegisteredRegionsAndRefusesAnAddressNoneRegistered() {
    try (var arena = Arena.ofConfined(); var source = new InProcessDataPlane(); var target = new InProcessDataPlane()) {
      var from = arena.allocate(4096, 4096);
      var to = arena.allocate(4096, 4096);
      var elsewhere = arena.allocate(4096, 4096);
      from.fill((byte) 1);
      RegionSpec src = spec("kv-0", from.address());
      RegionSpec dst = spec("kv-0", to.address());
      source.register("p-0", 1, src, "");
      target.register("d-0", 1, dst, "");

      assertThat(source.transfer(order("t-ok", src, dst))).isInstanceOf(TransferCompleted.class);
      assertThat(to.get(ValueLayout.JAVA_BYTE, 0)).isEqualTo((byte) 1);

      FleetEvent forged = source.transfer(order("t-forged", src, spec("kv-0", elsewhere.address())));
      assertThat(forged).isInstanceOfSatisfying(TransferFailed.class, f -> {
        assertThat(f.reason()).isEqualTo(ReasonCodes.UNKNOWN_REGION);
        assertThat(f.detail()).contains("nothing was copied");
      });
      assertThat(elsewhere.get(ValueLayout.JAVA_BYTE, 0)).isZero();
    }
  }

  private static RegionSpec spec(String id, long address) {
    return new RegionSpec(id, RegionKind.KV, MemoryType.DRAM, -1, address, 4096, 4096, "kv", 0);
  }

  private static TransferOrder order(String id, RegionSpec source, RegionSpec destination) {
    var request = new TransferRequested(id, "p-0", 1, source.regionId(), "d-0", 1, destination.regionId(),
        TransferOp.WRITE, List.of(new ByteRange(0, 0, 4096)), System.currentTimeMillis() + 10_000, false);
    return new TransferOrder(request, source, destination, Map.of(), "", id);
  }
}
