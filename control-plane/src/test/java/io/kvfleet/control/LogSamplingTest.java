package io.kvfleet.control;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

class LogSamplingTest {

  @Test
  void writesTheFirstHundredThenOneInTenThousandAndSaysHowMany() {
    var sampling = new LogSampling();
    long written = LongStream.range(0, 100_000).filter(i -> sampling.next()).count();

    assertThat(written).isEqualTo(LogSampling.FIRST + 100_000 / LogSampling.EVERY);
    assertThat(sampling.seen()).isEqualTo(100_000);
    assertThat(sampling.note()).isEqualTo(" (100000 so far; past 100, one in 10000 is logged)");
  }

  @Test
  void saysNothingMoreWhileEveryLineIsWritten() {
    var sampling = new LogSampling();
    sampling.next();
    assertThat(sampling.note()).isEmpty();
  }
}
