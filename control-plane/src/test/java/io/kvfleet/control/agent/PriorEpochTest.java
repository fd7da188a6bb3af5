package io.kvfleet.control.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kvfleet.control.KvfleetException;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/** The epoch an agent joins at, from what it read back of its node's records. */
class PriorEpochTest {

  @Test
  void theClockWinsWhenItIsAboveEveryEpochFound() {
    var found = new PriorEpoch.Found(OptionalLong.of(999), 12, "n-0", 40, "");
    assertThat(found.joinAt("n-0", 1_000)).isEqualTo(1_000);
    assertThat(found.warning("n-0", 1_000)).isEmpty();
  }

  @Test
  void anEpochEqualToTheClockIsJoinedAbove() {
    var found = new PriorEpoch.Found(OptionalLong.of(1_000), 12, "n-0", 40, "");
    assertThat(found.joinAt("n-0", 1_000)).isEqualTo(1_001); // the fold takes only a higher epoch
    assertThat(found.warning("n-0", 1_000)).isPresent();
  }

  @Test
  void theLargestEpochLeavesNoJoinAndSaysWhoWroteIt() {
    var found = new PriorEpoch.Found(OptionalLong.of(Long.MAX_VALUE), 77, "intruder", 40, "");
    assertThatThrownBy(() -> found.joinAt("n-0", 1_000)).isInstanceOfSatisfying(KvfleetException.class,
        e -> assertThat(e.kind()).isEqualTo(KvfleetException.Kind.BAD_INPUT))
        .hasMessageContaining("offset 77").hasMessageContaining("'intruder'").hasMessageContaining("another --id");
  }

  @Test
  void aReadStoppedByItsBudgetSaysSoAndJoinsAtTheClock() {
    var found = new PriorEpoch.Found(OptionalLong.empty(), -1, "", 2_000_000, "at its budget of 2000000 records");
    assertThat(found.joinAt("n-0", 1_000)).isEqualTo(1_000);
    assertThat(found.warning("n-0", 1_000)).get().asString().contains("read 2000000 records back", "stopped at its budget", "no join of n-0");
  }
}
