package io.kvfleet.engine.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Released ranges are kept mapped, but not without bound (a register/release loop used up the agent's address space). */
class ParkedRangesTest {
  private static final long PAGE = 4096;

  private static long map(long length) {
    Libc.Result mapped = Libc.mmap(0, length, Libc.PROT_READ | Libc.PROT_WRITE,
        Libc.MAP_PRIVATE | Libc.MAP_ANONYMOUS | Libc.MAP_NORESERVE, -1, 0);
    assertThat(mapped.value()).isNotEqualTo(Libc.MAP_FAILED);
    return mapped.value();
  }

  @Test
  void unmapsTheOldestPastTheRangeCount() {
    var parked = new ParkedRanges(3, Long.MAX_VALUE);
    List<Long> addresses = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      addresses.add(map(PAGE)); // all mapped first: the kernel may hand out an unmapped range again
    }
    addresses.forEach(a -> parked.park(a, PAGE));

    assertThat(parked.size()).isEqualTo(3);
    assertThat(ProcMaps.problemWith(addresses.get(0), PAGE)).get().asString().contains("not mapped");
    assertThat(ProcMaps.problemWith(addresses.get(1), PAGE)).get().asString().contains("not mapped");
    assertThat(addresses.subList(2, 5)).allSatisfy(a -> assertThat(ProcMaps.problemWith(a, PAGE)).isEmpty());
    addresses.subList(2, 5).forEach(a -> Libc.munmap(a, PAGE));
  }

  @Test
  void unmapsTheOldestPastTheBytes() {
    var parked = new ParkedRanges(100, 4 * PAGE);
    long first = map(3 * PAGE);
    long second = map(2 * PAGE);
    parked.park(first, 3 * PAGE);
    parked.park(second, 2 * PAGE); // 5 pages: the first goes

    assertThat(parked.size()).isEqualTo(1);
    assertThat(ProcMaps.problemWith(first, 3 * PAGE)).get().asString().contains("not mapped");
    assertThat(ProcMaps.problemWith(second, 2 * PAGE)).isEmpty();
    Libc.munmap(second, 2 * PAGE);
  }
}
