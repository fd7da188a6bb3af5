package io.kvfleet.control.replay.bench;

import io.kvfleet.events.snapshot.ReferenceStateHash;
import io.kvfleet.events.state.StateImage;
import java.util.ArrayList;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The state hash of a large state ({@link LargeStateLog}'s, some 205,000 transfers) on one thread, in
 * hashes per second: the canonical form as it was at 22f3146 (the reference its tests compare it with)
 * and as it is, side by side over the same image. The image is taken once: what is timed is the hash.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(value = 1, jvmArgsAppend = "-Xmx2g")
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class StateHashBenchmark {

  /** The image of the large state. */
  @State(Scope.Benchmark)
  public static class LargeImage {
    StateImage image;

    @Setup(Level.Trial)
    public void generate() {
      image = LargeStateLog.fold(new ArrayList<>()).image();
      String hash = ReferenceStateHash.current(image);
      if (!hash.equals(ReferenceStateHash.reference(image))) {
        throw new IllegalStateException("the state hash is not the reference's: " + hash);
      }
      System.out.println("state hash, the same by both: " + hash);
    }
  }

  /** Hashes per second of the form as first written. */
  @Benchmark
  public String reference(LargeImage state) {
    return ReferenceStateHash.reference(state.image);
  }

  /** Hashes per second of {@code StateHash.of}. */
  @Benchmark
  public String current(LargeImage state) {
    return ReferenceStateHash.current(state.image);
  }
}
