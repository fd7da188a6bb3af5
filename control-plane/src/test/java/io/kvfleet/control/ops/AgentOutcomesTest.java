package io.kvfleet.control.ops;

import static org.assertj.core.api.Assertions.assertThat;

import io.kvfleet.events.MemoryType;
import io.kvfleet.events.PeerHeartbeat;
import io.kvfleet.events.ReasonCodes;
import io.kvfleet.events.RegionKind;
import io.kvfleet.events.RegionRegistered;
import io.kvfleet.events.RegionSkipped;
import io.kvfleet.events.RegionSpec;
import io.kvfleet.events.TransferCompleted;
import io.kvfleet.events.TransferFailed;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.junit.jupiter.api.Test;

/** A node's own outcomes on its {@code /metrics}: what it moved and registered, counted once each. */
class AgentOutcomesTest {
  private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
  private final AgentOutcomes outcomes = new AgentOutcomes(registry, "prefill-0");

  @Test
  void countsTransfersByOutcomeAndReasonAndTheBytesByPath() {
    outcomes.accept(new TransferCompleted("t-1", "prefill-0", 4096, 10, "ucx", ""));
    outcomes.accept(new TransferCompleted("t-2", "prefill-0", 8192, 10, "ucx", ""));
    outcomes.accept(new TransferFailed("t-3", "prefill-0", ReasonCodes.DEADLINE_PASSED, 0, ""));
    outcomes.accept(new PeerHeartbeat("prefill-0", 1, 900));

    assertThat(count("kvfleet_agent_transfers", "outcome", "completed", "reason", "NONE")).isEqualTo(2);
    assertThat(count("kvfleet_agent_transfers", "outcome", "failed", "reason", ReasonCodes.DEADLINE_PASSED))
        .isEqualTo(1);
    assertThat(registry.get("kvfleet_agent_transfer_bytes").tags("node", "prefill-0", "path", "ucx").counter().count())
        .isEqualTo(12_288);
  }

  @Test
  void countsRegistrationsByOutcomeReasonAndBackend() {
    var region = new RegionSpec("kv_data-0", RegionKind.KV, MemoryType.DRAM, -1, 0x1000, 4096, 4096, "kv_data", 0);
    outcomes.accept(new RegionRegistered("prefill-0", 1, region, "host", ""));
    outcomes.accept(new RegionSkipped("prefill-0", 1, region, ReasonCodes.ZERO_LENGTH));

    assertThat(registry.get("kvfleet_agent_registrations")
        .tags("node", "prefill-0", "outcome", "registered", "reason", "NONE", "backend", "host").counter().count())
        .isEqualTo(1);
    assertThat(registry.get("kvfleet_agent_registrations")
        .tags("outcome", "skipped", "reason", ReasonCodes.ZERO_LENGTH).counter().count()).isEqualTo(1);
  }

  /** A reason its engine made up is a label too: bounded as the coordinator's are. */
  @Test
  void reasonsThisBuildDoesNotKnowAreBounded() {
    for (int i = 0; i < LabelValues.PER_LABEL + 10; i++) {
      outcomes.accept(new TransferFailed("t-" + i, "prefill-0", "ENGINE_SAID_" + i, 0, ""));
    }

    assertThat(registry.find("kvfleet_agent_transfers").counters()).hasSize(LabelValues.PER_LABEL + 1);
    assertThat(count("kvfleet_agent_transfers", "outcome", "failed", "reason", LabelValues.OTHER)).isEqualTo(10);
  }

  private double count(String name, String... tags) {
    return registry.get(name).tag("node", "prefill-0").tags(tags).counter().count();
  }
}
