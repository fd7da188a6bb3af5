package io.kvfleet.events.replay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import org.junit.jupiter.api.Test;

class UntilTest {

  @Test
  void readsATimeAPositionOrACount() {
    assertThat(Until.parse("2025-06-01T10:42:07Z")).isEqualTo(new Until.AtTime(Instant.parse("2025-06-01T10:42:07Z")));
    assertThat(Until.parse("2025-06-01T12:42:07+02:00"))
        .isEqualTo(new Until.AtTime(Instant.parse("2025-06-01T10:42:07Z")));
    assertThat(Until.parse("kvfleet.transfers-2@17"))
        .isEqualTo(new Until.AtRecord(new LogPosition("kvfleet.transfers", 2, 17)));
    assertThat(Until.parse("1500")).isEqualTo(new Until.AfterCount(1500));
  }

  @Test
  void saysWhatItReadsWhenGivenSomethingElse() {
    assertThatThrownBy(() -> Until.parse("yesterday")).hasMessageContaining("is not a time");
    assertThatThrownBy(() -> Until.parse("99999999999999999999")).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("is more records than a log holds").hasMessageContaining("a record count (1500)");
    assertThatThrownBy(() -> Until.parse("kvfleet.nodes-1@99999999999999999999"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("an offset past 9223372036854775807");
  }

  @Test
  void foldsTheRecordAtThePositionGivenThenStops() {
    var script = new Script().node("d0", 1, Script.joined("d0", 1)).node("d0", 1, Script.registered("d0", 1, "kv-0"))
        .node("d0", 1, Script.registered("d0", 1, "kv-1"));
    var second = script.records().get(1).position();

    var result = script.replay(ReplayOptions.defaults().until(new Until.AtRecord(second)));

    assertThat(result.records()).isEqualTo(2);
    assertThat(result.lastPosition()).contains(second);
  }
}
