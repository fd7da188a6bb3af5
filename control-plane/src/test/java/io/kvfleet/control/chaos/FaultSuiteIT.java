package io.kvfleet.control.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The fault suite as CI runs it: each scenario against a fleet of real processes under load, with
 * short leases so the waits stay short: three broker restarts (alone and of three) and three
 * coordinator restarts (alone and in a group), two of each agent fault and two poison rounds
 * ({@link Scenario#suiteRounds}; {@code -Dkvfleet.chaos.rounds} sets one count for all and {@code
 * -Dkvfleet.chaos.rate} the load; {@code kvfleet chaos} runs five of each, and the soak of
 * RELIABILITY.md more). Each must keep every promise. It runs alone, after the other integration
 * tests (its tag; the control plane's pom): beside them, the machine's load widened the window of a
 * pause inside a page copy (RELIABILITY.md, "A pause inside a page copy").
 */
@Tag("fault-suite")
class FaultSuiteIT {
  private static final Integer ROUNDS = Integer.getInteger("kvfleet.chaos.rounds");
  private static final int RATE = Integer.getInteger("kvfleet.chaos.rate", 50);

  @ParameterizedTest
  @EnumSource(Scenario.class)
  void everyRequestEndsExactlyOnceAndNothingMovesAfterAFailure(Scenario scenario) throws IOException {
    Path dir = Files.createDirectories(Path.of("target", "chaos", scenario.name().toLowerCase()));
    var config = new ChaosConfig("target/classes:target/lib/*", dir, RATE, Duration.ofSeconds(5),
        Duration.ofMillis(300), ROUNDS == null ? scenario.suiteRounds : ROUNDS,
        "kvfleet-fault-suite-" + UUID.randomUUID().toString().substring(0, 8));
    var figures = FaultRun.run(scenario, config);
    System.out.println("FaultSuiteIT " + figures.describe());
    assertThat(figures.held()).as(figures.describe()).isTrue();
  }
}
