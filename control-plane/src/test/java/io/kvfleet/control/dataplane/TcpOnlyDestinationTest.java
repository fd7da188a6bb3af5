package io.kvfleet.control.dataplane;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

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
import io.kvfleet.events.TransferFailed;
import io.kvfleet.events.TransferOp;
import io.kvfleet.events.TransferRequested;
import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A transfer to a node whose UCX offers only tcp, from a node whose UCX runs without it (the default): the transfer
 * fails {@code NO_COMMON_TRANSPORT} at once, with a detail that names {@code --ucx-allow-tcp}, not a raw UCX error.
 */
class TcpOnlyDestinationTest {
  private static final long LENGTH = 1 << 16;

  @Test
  void failsNoCommonTransportWhenTheDestinationOffersOnlyTcp() {
    try (var source = new EngineDataPlane(Engine.open(EngineConfig.defaults().withName("p-0")));
        var destination = new EngineDataPlane(Engine.open(EngineConfig.defaults().withName("d-0")
            .withBackends("ucx").withUcxTransports("tcp")))) {
      assumeTrue(destination.capabilities().stream().anyMatch(c -> c.backend().equals("ucx") && c.available()),
          "UCX is not available here: " + destination.capabilities());
      RegionSpec from = kv("kv-src", source.allocate("src", LENGTH));
      RegionSpec to = kv("kv-dst", destination.allocate("dst", LENGTH));
      source.register("p-0", 1, from, "");
      String key = destination.register("d-0", 1, to, "").stream()
          .filter(e -> e instanceof RegionRegistered r && r.backend().equals("ucx"))
          .map(e -> ((RegionRegistered) e).remoteKey()).findFirst().orElseThrow();
      var request = new TransferRequested("t-1", "p-0", 1, "kv-src", "d-0", 1, "kv-dst", TransferOp.WRITE,
          List.of(new ByteRange(0, 0, LENGTH)), System.currentTimeMillis() + 30_000, false);

      FleetEvent outcome = source.transfer(new TransferOrder(request, from, to, Map.of("ucx", key),
          destination.transportAddress(), "envelope-1"));

      assertThat(outcome).isInstanceOfSatisfying(TransferFailed.class, f -> {
        assertThat(f.reason()).isEqualTo(ReasonCodes.NO_COMMON_TRANSPORT);
        assertThat(f.detail()).contains("offers none of this engine's transports", "--ucx-allow-tcp");
      });
    }
  }

  private static RegionSpec kv(String id, MemorySegment memory) {
    return new RegionSpec(id, RegionKind.KV, MemoryType.DRAM, -1, memory.address(), memory.byteSize(), 4096,
        "kv_data", 0);
  }
}
