package io.kvfleet.control.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class StartupBenchTest {
  private static StartupBench.Start start(long main, long ready, long joinEnd) {
    var marks = new LinkedHashMap<String, Long>();
    marks.put("main", main);
    marks.put("ready", ready);
    var spans = new LinkedHashMap<String, StartupBench.Span>();
    spans.put("cluster-join", new StartupBench.Span(main, joinEnd));
    return new StartupBench.Start("node agent", marks, spans);
  }

  @Test
  void printsTheStepsAsTheTimeSinceTheOneBeforeAndThePhasesBesideThemWithTheirSpan() {
    var start = start(500, 3_000, 2_000);
    assertThat(StartupBench.sequence(start)).isEqualTo("  main +500  ready +2,500");
    assertThat(StartupBench.beside(start)).isEqualTo("  | side by side:  cluster-join 1,500 (500-2,000)");
  }

  @Test
  void summarisesEachPhaseByItsMedianOverTheRounds() {
    var starts = List.of(start(500, 3_000, 2_000), start(700, 4_000, 1_000), start(600, 9_000, 3_600));
    assertThat(StartupBench.medians(starts)).isEqualTo("  main +600  ready +3,300  | side by side:  cluster-join 1,500");
  }

  @Test
  void aStartWithoutSideBySidePhasesPrintsOnlyItsSteps() {
    var start = new StartupBench.Start("coordinator", new LinkedHashMap<>(Map.of("ready", 900L)), Map.of());
    assertThat(StartupBench.beside(start)).isEmpty();
    assertThat(StartupBench.medians(List.of(start))).isEqualTo("  ready +900");
  }
}
