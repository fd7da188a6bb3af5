package io.kvfleet.control.demo;

import static org.assertj.core.api.Assertions.assertThat;

import io.kvfleet.engine.Capability;
import io.kvfleet.engine.MemoryType;
import java.util.List;
import org.junit.jupiter.api.Test;

class DataPathNoticeTest {
  private static final Capability HOST =
      new Capability("host", true, "", List.of(MemoryType.DRAM), List.of("process_vm"), false, "");
  private static final Capability UCX = new Capability("ucx", true, "1.13.1", List.of(MemoryType.DRAM),
      List.of("sysv", "posix", "tcp"), true, "");

  @Test
  void withUcxBothAgentsUseItAndNothingIsToBeInstalled() {
    var lines = DataPathNotice.lines(List.of(UCX, HOST));

    assertThat(lines.get(0)).isEqualTo("kvfleet demo: prefill-0 sends its KV pages with ucx 1.13.1 (transports sysv,"
        + " posix, tcp): UCX is the first backend both agents register their host buffers with");
    assertThat(lines.get(1)).isEqualTo("kvfleet demo: decode-0 receives them with ucx (the same engine on the same host)");
    assertThat(String.join("\n", lines)).doesNotContain("apt-get").doesNotContain("without UCX");
  }

  @Test
  void withoutUcxTheNoticeSaysWhyWhatChangesAndHowToGetIt() {
    var missing = Capability.unavailable("ucx", "libucp.so.0 not found");
    var lines = DataPathNotice.lines(List.of(missing, HOST));

    assertThat(lines.get(0)).isEqualTo("kvfleet demo: prefill-0 sends its KV pages with host (transports process_vm):"
        + " the first backend both agents register their host buffers with; ucx is unavailable: libucp.so.0 not found");
    assertThat(lines.get(2)).contains("never across hosts");
    assertThat(lines.get(3)).contains("apt-get install libucx0 ucx-utils").contains("KVFLEET_UCX=off");
  }

  @Test
  void ucxTurnedOffOnPurposeSaysHowToTurnItOn() {
    var off = Capability.unavailable("ucx", "turned off (KVFLEET_UCX=off): this process runs without UCX on purpose");
    var lines = DataPathNotice.lines(List.of(off, HOST));

    assertThat(lines.get(3)).isEqualTo("kvfleet demo: UCX is off on purpose (KVFLEET_UCX=off); unset it to use UCX");
  }
}
