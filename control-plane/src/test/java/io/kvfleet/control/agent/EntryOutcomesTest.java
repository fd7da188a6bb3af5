package io.kvfleet.control.agent;

import static org.assertj.core.api.Assertions.assertThat;

import io.kvfleet.events.BackendCapability;
import io.kvfleet.events.FleetEvent;
import io.kvfleet.events.MemoryType;
import io.kvfleet.events.ReasonCodes;
import io.kvfleet.events.RegionKind;
import io.kvfleet.events.RegionRegistered;
import io.kvfleet.events.RegionSkipped;
import io.kvfleet.events.RegionSpec;
import io.kvfleet.events.RegistrationDecision;
import io.kvfleet.events.RegistrationFailed;
import java.util.List;
import org.junit.jupiter.api.Test;

class EntryOutcomesTest {
  private static final BackendCapability NONE = new BackendCapability("x", false, "", List.of(), List.of(), "");

  @Test
  void aFailureIsExplainedByTheBackendThatLookedAtTheMemoryNotByOneThatIsNotLoaded() {
    var region = region("state", 0);
    var entries = EntryOutcomes.of(List.of(
        failed(region, "ucx", ReasonCodes.BACKEND_UNAVAILABLE),
        failed(region, "host", ReasonCodes.MEMORY_TYPE_UNSUPPORTED),
        failed(region, "cuda", ReasonCodes.DEVICE_UNAVAILABLE),
        new RegistrationDecision("n", 1, "state", "CONTINUE_WITHOUT", "continued")));

    assertThat(entries).singleElement().satisfies(entry -> {
      assertThat(entry.outcome()).isEqualTo(EntryOutcomes.Outcome.FAILED);
      assertThat(entry.reason()).isEqualTo(ReasonCodes.DEVICE_UNAVAILABLE);
      assertThat(entry.diagnosis().backend()).isEqualTo("cuda");
      assertThat(entry.refusals()).hasSize(3);
    });
  }

  @Test
  void anEntryTheStagedPathTookIsRegisteredAndKeepsTheRefusalsBeforeIt() {
    var region = region("state", 0);
    var entries = EntryOutcomes.of(List.of(failed(region, "ucx", ReasonCodes.NO_MEMORY_DOMAIN),
        new RegionRegistered("n", 1, region, "staged", "staged:state-0")));

    assertThat(entries).singleElement().satisfies(entry -> {
      assertThat(entry.outcome()).isEqualTo(EntryOutcomes.Outcome.REGISTERED);
      assertThat(entry.backends()).containsExactly("staged");
      assertThat(entry.reason()).isNull();
      assertThat(entry.refusals()).extracting(EntryOutcomes.Diagnosis::reason).containsExactly(ReasonCodes.NO_MEMORY_DOMAIN);
    });
  }

  @Test
  void entriesAreCountedByOutcomeAndAnOldLogsSkipCodeStaysReadable() {
    List<FleetEvent> events = List.of(new RegionRegistered("n", 1, region("kv", 0), "ucx", "k"),
        new RegionSkipped("n", 1, region("kv", 1), ReasonCodes.NULL_OR_EMPTY),
        new RegionSkipped("n", 1, region("kv", 2), ReasonCodes.ZERO_LENGTH),
        failed(region("kv", 3), "host", ReasonCodes.INVALID_ADDRESS));
    var entries = EntryOutcomes.of(events);

    assertThat(EntryOutcomes.count(entries)).isEqualTo(new EntryOutcomes.Counts(1, 2, 1));
    assertThat(entries.get(1).diagnosis().detail()).isEqualTo("kv-1: nothing to register (NULL_OR_EMPTY)");
    assertThat(entries.get(2).diagnosis().detail()).isEqualTo("kv-2: zero length; nothing to register");
    assertThat(RegistrationAnswer.of(events, true, 0).outcome()).isEqualTo(RegistrationAnswer.Outcome.PARTIAL);
  }

  @Test
  void theOverallOutcomeCountsSkipsAsNoFailure() {
    List<FleetEvent> skipsOnly = List.of(new RegionSkipped("n", 1, region("kv", 0), ReasonCodes.NULL_ADDRESS));
    List<FleetEvent> failuresOnly = List.of(failed(region("kv", 0), "host", ReasonCodes.INVALID_ADDRESS),
        new RegionSkipped("n", 1, region("kv", 1), ReasonCodes.NULL_ADDRESS));

    assertThat(RegistrationAnswer.of(skipsOnly, true, 0).outcome()).isEqualTo(RegistrationAnswer.Outcome.REGISTERED);
    assertThat(RegistrationAnswer.of(failuresOnly, true, 0).outcome()).isEqualTo(RegistrationAnswer.Outcome.FAILED);
  }

  private static RegionSpec region(String component, int index) {
    return new RegionSpec(component + "-" + index, RegionKind.KV, MemoryType.DRAM, -1, 4096, 4096, 0, component, index);
  }

  private static RegistrationFailed failed(RegionSpec region, String backend, String reason) {
    return new RegistrationFailed("n", 1, region, backend, reason, region.regionId() + ": " + reason, 0, "", NONE,
        "fix " + reason);
  }
}
