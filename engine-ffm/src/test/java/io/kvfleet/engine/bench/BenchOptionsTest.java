package io.kvfleet.engine.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** The bench's command line. */
class BenchOptionsTest {

  @Test
  void defaultsToTheFourSizesOverSharedMemoryAndTcpWithPerftest() {
    BenchOptions options = BenchOptions.parse();
    assertThat(options.sizes()).containsExactly(4096L, 65536L, 1L << 20, 4L << 20);
    assertThat(options.transports()).extracting(BenchOptions.Transport::tls)
        .containsExactly("posix,sysv,cma,self", "tcp");
    assertThat(options.perftest()).isTrue();
  }

  @Test
  void readsSizesTransportsAndSwitches() {
    BenchOptions options = BenchOptions.parse("--sizes", "8k,2m", "--transports", "tcp",
        "--repeats", "5", "--no-perftest");
    assertThat(options.sizes()).containsExactly(8192L, 2L << 20);
    assertThat(options.transports()).containsExactly(BenchOptions.TCP);
    assertThat(options.repeats()).isEqualTo(5);
    assertThat(options.perftest()).isFalse();
  }

  @Test
  void refusesAnUnknownOptionAndListsTheKnownOnes() {
    assertThatThrownBy(() -> BenchOptions.parse("--fast"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("--sizes");
  }
}
