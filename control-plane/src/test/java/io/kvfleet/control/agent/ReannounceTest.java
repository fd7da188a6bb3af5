package io.kvfleet.control.agent;

import static org.assertj.core.api.Assertions.assertThat;

import io.kvfleet.events.FleetEvent;
import io.kvfleet.events.MemoryType;
import io.kvfleet.events.RegionDeregistered;
import io.kvfleet.events.RegionKind;
import io.kvfleet.events.RegionRegistered;
import io.kvfleet.events.RegionSkipped;
import io.kvfleet.events.RegionSpec;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What a fenced agent says again at its new epoch: what its registrations said last, not every time they said it. */
class ReannounceTest {
  private static RegionSpec kv(String id, long length) {
    return new RegionSpec(id, RegionKind.KV, MemoryType.DRAM, -1, length == 0 ? 0 : 0x1000, length, 0, "kv", 0);
  }

  /** A worker that repeated a registration of 2,000 zero-length entries grew the list by 2,000 each time. */
  @Test
  void aRepeatedOutcomeIsKeptOnce() {
    var said = new Reannounce();
    for (int call = 0; call < 5; call++) {
      var outcomes = new ArrayList<FleetEvent>();
      for (int i = 0; i < 2_000; i++) {
        outcomes.add(new RegionSkipped("p0", 1, kv("kv-" + i, 0), "ZERO_LENGTH"));
      }
      said.heard(outcomes);
    }

    assertThat(said.at(2)).hasSize(2_000).allSatisfy(e -> assertThat(((RegionSkipped) e).epoch()).isEqualTo(2));
  }

  /** The latest outcome of each kind goes last, as it was said; a release forgets the region. */
  @Test
  void keepsTheLastOutcomeOfEachKindInTheOrderItWasSaid() {
    var said = new Reannounce();
    said.heard(List.of(
        new RegionSkipped("p0", 1, kv("kv-0", 0), "ZERO_LENGTH"),
        new RegionRegistered("p0", 1, kv("kv-0", 4096), "ucx", "k1"),
        new RegionRegistered("p0", 1, kv("kv-1", 4096), "ucx", "k2"),
        new RegionSkipped("p0", 1, kv("kv-0", 0), "ZERO_LENGTH"),
        new RegionRegistered("p0", 1, kv("kv-2", 4096), "ucx", "k3"),
        new RegionRegistered("p0", 1, kv("kv-2", 4096), "host", "k4"),
        new RegionDeregistered("p0", 1, "kv-2", "ucx", "RELEASED")));

    assertThat(said.at(2)).extracting(e -> e.wireType().replace("io.kvfleet.", "") + " " + e.subject())
        .containsExactly("region.registered kv-0", "region.registered kv-1", "region.skipped kv-0");
  }
}
