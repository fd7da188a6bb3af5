package io.kvfleet.events.state;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

/** The runs of one incarnation agree with the plain set of numbers seen, whatever order the numbers come in. */
class RunsTest {

  /** The maximal runs of consecutive numbers in {@code seen}, lowest first. */
  private static List<Sequences.Run> runsOf(TreeSet<Long> seen) {
    var runs = new ArrayList<Sequences.Run>();
    Long first = null;
    long last = 0;
    for (long n : seen) {
      if (first != null && n == last + 1) {
        last = n;
        continue;
      }
      if (first != null) {
        runs.add(new Sequences.Run(first, last));
      }
      first = n;
      last = n;
    }
    if (first != null) {
      runs.add(new Sequences.Run(first, last));
    }
    return runs;
  }

  private static void checkAgainstASet(long[] numbers) {
    var runs = new Runs();
    var seen = new TreeSet<Long>();
    for (long n : numbers) {
      assertThat(runs.contains(n)).as("contains %d", n).isEqualTo(seen.contains(n));
      assertThat(runs.add(n)).as("add %d", n).isEqualTo(seen.add(n));
    }
    assertThat(runs.list()).isEqualTo(runsOf(seen));
    assertThat(Runs.of(runs.list()).list()).as("restored").isEqualTo(runs.list());
  }

  @Test
  void agreesWithASetForNumbersInOrderWithGapsAndRepeats() {
    checkAgainstASet(new long[] {1, 2, 3, 3, 5, 6, 4, 9, 8, 7, 7, 1, 12, 10, 11, 11});
  }

  @Test
  void agreesWithASetForNumbersDescending() {
    checkAgainstASet(LongStream.iterate(1_000, n -> n - 2).limit(400).toArray());
    checkAgainstASet(LongStream.iterate(1_000, n -> n - 1).limit(400).toArray());
  }

  @Test
  void agreesWithASetForNumbersInRandomOrder() {
    var random = new Random(19);
    for (int round = 0; round < 200; round++) {
      int span = 1 + random.nextInt(60);
      long[] numbers = LongStream.range(0, 1 + random.nextInt(120)).map(i -> random.nextInt(span)).toArray();
      checkAgainstASet(numbers);
    }
  }

  @Test
  void agreesWithASetForMostlyAscendingNumbersWithLateOnes() {
    var random = new Random(20);
    long[] numbers = new long[2_000];
    for (int i = 0; i < numbers.length; i++) {
      numbers[i] = random.nextInt(10) == 0 ? Math.max(0, i - random.nextInt(30)) : i;
    }
    checkAgainstASet(numbers);
  }
}
