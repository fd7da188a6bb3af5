package io.kvfleet.control.dataplane;

import io.kvfleet.control.protocol.OrderPart;
import io.kvfleet.control.protocol.TransferOrder;
import static org.assertj.core.api.Assertions.assertThat;

import io.kvfleet.engine.Engine;
import io.kvfleet.engine.EngineConfig;
import io.kvfleet.events.ByteRange;
import io.kvfleet.events.MemoryType;
import io.kvfleet.events.ReasonCodes;
import io.kvfleet.events.RegionKind;
import io.kvfleet.events.RegionRegistered;
import io.kvfleet.events.RegionSpec;
import io.kvfleet.events.RequestPart;
import io.kvfleet.events.TransferFailed;
import io.kvfleet.events.TransferRequested;
import java.lang.foreign.Arena;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** A request transfer on the real engine is all or nothing: a part no backend can reach fails the whole, named, before a byte moves. */
class RequestTransferRunTest {
  private final EngineDataPlane plane = new EngineDataPlane(Engine.open(EngineConfig.defaults().withName("p-0")));
  private final Arena arena = Arena.ofShared();

  @AfterEach
  void close() {
    plane.close();
    arena.close();
  }

  @Test
  void failsTheWholeRequestNamingThePartNoBackendHoldsAndMovesNothing() {
    var source = plane.allocate("source", 8192);
    source.fill((byte) 7);
    var destination = plane.allocate("destination", 8192);
    var kv = spec("kv-0", source.address());
    var registered = plane.register("p-0", 1, kv, "").stream()
        .filter(RegionRegistered.class::isInstance).map(RegionRegistered.class::cast).toList();
    assertThat(registered).isNotEmpty();
    Map<String, String> keys = Map.of(registered.getFirst().backend(), registered.getFirst().remoteKey());
    var ranges = List.of(new ByteRange(0, 4096, 4096));
    var good = new OrderPart("kv", 0, kv, spec("kv-0", destination.address()), keys, ranges);
    var unregistered = new OrderPart("ssm", 0, spec("ssm-0", source.address()), spec("ssm-0", destination.address()),
        keys, ranges);
    var request = TransferRequested.ofRequest("r-1", "room-1", "p-0", 1, "p-0", 1,
        List.of(new RequestPart("kv", List.of(0), List.of(1)), new RequestPart("ssm", List.of(0), List.of(1))),
        List.of(), System.currentTimeMillis() + 10_000, true);
    var order = new TransferOrder(request, kv, good.destination(), keys, plane.transportAddress(), "e-1",
        List.of(good, unregistered));

    var outcome = plane.transfer(order);

    assertThat(outcome).isInstanceOfSatisfying(TransferFailed.class, f -> {
      assertThat(f.reason()).isEqualTo(ReasonCodes.NOT_EXPOSED);
      assertThat(f.detail()).startsWith("part ssm buffer 0: no backend registered both ssm-0 [] and ssm-0 ")
          .endsWith("(request transfers take no staged path); nothing was moved");
    });
    assertThat(destination.asSlice(4096, 4096).mismatch(arena.allocate(4096))).as("kv part not moved either")
        .isEqualTo(-1L);
  }

  private static RegionSpec spec(String id, long address) {
    return new RegionSpec(id, RegionKind.KV, MemoryType.DRAM, -1, address, 8192, 4096, id.substring(0, id.indexOf('-')), 0);
  }
}
