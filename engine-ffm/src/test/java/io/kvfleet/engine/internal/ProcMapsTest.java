package io.kvfleet.engine.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import org.junit.jupiter.api.Test;

/** Reading /proc/self/maps lines and checking ranges against them. */
class ProcMapsTest {

  @Test
  void parsesALineWithAPath() {
    ProcMaps.Mapping mapping = ProcMaps.parse(
        "7f1c2a400000-7f1c2a428000 r--p 00000000 08:01 1835023                    /usr/lib/x86_64-linux-gnu/libc.so.6");
    assertThat(mapping.start()).isEqualTo(0x7f1c2a400000L);
    assertThat(mapping.end()).isEqualTo(0x7f1c2a428000L);
    assertThat(mapping.perms()).isEqualTo("r--p");
    assertThat(mapping.name()).isEqualTo("/usr/lib/x86_64-linux-gnu/libc.so.6");
  }

  @Test
  void parsesAnAnonymousLine() {
    ProcMaps.Mapping mapping = ProcMaps.parse("7ffd1000-7ffd3000 rw-p 00000000 00:00 0 ");
    assertThat(mapping.perms()).isEqualTo("rw-p");
    assertThat(mapping.name()).isEmpty();
  }

  @Test
  void acceptsMemoryThisProcessAllocated() {
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment segment = arena.allocate(1 << 20);
      assertThat(ProcMaps.problemWith(segment.address(), segment.byteSize())).isEmpty();
    }
  }

  @Test
  void refusesAnEmptyOrWrappingRange() {
    assertThat(ProcMaps.problemWith(4096, 0)).isPresent();
    assertThat(ProcMaps.problemWith(-4096, 8192)).get().asString().contains("wraps");
  }
}
