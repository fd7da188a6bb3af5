package io.kvfleet.engine.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A tiny bench run end to end (two processes, ucx_perftest where present); no timing asserted. */
class EngineBenchTest {

  @Test
  void printsOneRowPerSizeAndTheKvPatternWithARatioWherePerftestRan() {
    BenchOptions options = BenchOptions.defaults()
        .withSizes(List.of(4096L, 65536L))
        .withTransports(List.of(new BenchOptions.Transport("shm", "posix,sysv,cma,self", 4L << 20, 1)))
        .withKvPages(64, 16 * 1024)
        .withRepeats(1);
    ByteArrayOutputStream buffer = new ByteArrayOutputStream();
    List<BenchRow> rows = EngineBench.run(options, new PrintStream(buffer, true, StandardCharsets.UTF_8));
    String printed = buffer.toString(StandardCharsets.UTF_8);

    org.junit.jupiter.api.Assumptions.assumeFalse(rows.isEmpty(), "ucx is not available: " + printed);
    assertThat(rows).extracting(BenchRow::workload)
        .containsExactly("4 KiB", "64 KiB", "KV 64 x 16 KiB scattered");
    assertThat(rows).allSatisfy(row -> {
      assertThat(row.kvfleet().bytes()).isPositive();
      assertThat(row.path()).startsWith("ucx/");
    });
    assertThat(printed).contains("| transport | workload |", "KV-page reference");
    if (printed.contains("Problems:")) {
      System.out.println("ucx_perftest did not run here:\n" + printed);
    } else {
      assertThat(rows).allSatisfy(row -> assertThat(row.ratio()).isPositive());
    }
  }
}
