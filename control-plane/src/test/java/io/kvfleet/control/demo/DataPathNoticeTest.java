package io.kvfleet.control.demo;

import static org.assertj.core.api.Assertions.assertThat;

import io.kvfleet.events.BackendCapability;
import io.kvfleet.events.MemoryType;
import java.util.List;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

class DataPathNoticeTest {
  private static final BackendCapability HOST =
      new BackendCapability("host", true, "", List.of(MemoryType.DRAM), List.of("process_vm"), "");
  private static final BackendCapability UCX = new BackendCapability("ucx", true, "1.13.1", List.of(MemoryType.DRAM),
      List.of("sysv", "posix", "tcp"), "");
  /** Only UCX reaches other hosts (the engine says so through the data plane). */
  private static final Predicate<String> CROSS_HOST = "ucx"::equals;

  private static BackendCapability unavailable(String backend, String detail) {
    return new BackendCapability(backend, false, "", List.of(), List.of(), detail);
  }

  @Test
  void withUcxBothAgentsUseItAndNothingIsToBeInstalled() {
    var lines = DataPathNotice.lines(List.of(UCX, HOST), CROSS_HOST);

    assertThat(lines.get(0)).isEqualTo("kvfleet demo: prefill-0 sends its KV pages with ucx 1.13.1 (transports sysv,"
        + " posix, tcp): ucx is the first backend both agents register their host buffers with");
    assertThat(lines.get(1)).isEqualTo("kvfleet demo: decode-0 receives them with ucx (the same engine on the same host)");
    assertThat(String.join("\n", lines)).doesNotContain("apt-get").doesNotContain("without UCX");
  }

  @Test
  void withoutUcxTheNoticeSaysWhyWhatChangesAndHowToGetIt() {
    var missing = unavailable("ucx", "libucp.so.0 not found");
    var lines = DataPathNotice.lines(List.of(missing, HOST), CROSS_HOST);

    assertThat(lines.get(0)).isEqualTo("kvfleet demo: prefill-0 sends its KV pages with host (transports process_vm):"
        + " the first backend both agents register their host buffers with; ucx is unavailable: libucp.so.0 not found");
    assertThat(lines.get(2)).contains("never across hosts");
    assertThat(lines.get(3)).contains("apt-get install libucx0 ucx-utils").contains("KVFLEET_UCX=off");
  }

  @Test
  void ucxTurnedOffOnPurposeSaysHowToTurnItOn() {
    var off = unavailable("ucx", "turned off (KVFLEET_UCX=off): this process runs without UCX on purpose");
    var lines = DataPathNotice.lines(List.of(off, HOST), CROSS_HOST);

    assertThat(lines.get(3)).isEqualTo("kvfleet demo: UCX is off on purpose (KVFLEET_UCX=off); unset it to use UCX");
  }
}
