package io.kvfleet.control.replay;

import static org.assertj.core.api.Assertions.assertThat;

import io.kvfleet.control.replay.bench.SyntheticExport;
import io.kvfleet.events.replay.Replay;
import io.kvfleet.events.replay.ReplayOptions;
import io.kvfleet.events.replay.Until;
import io.kvfleet.events.snapshot.StateHash;
import io.kvfleet.events.state.FleetState;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@code replay --until} from the snapshots beside an export reaches the state a replay from the start reaches. */
class TimeTravelTest {
  private static final Instant START = Instant.parse("2026-06-01T00:00:00Z");
  private static final Optional<Duration> KEEP = Optional.of(Duration.ofSeconds(3));
  private static final int EVENTS = 30_000; // one a millisecond: 30 s of log
  @TempDir static Path dir;
  static Path export;
  static List<Path> snapshots;
  static List<ExportWriter.Frame> frames;

  @BeforeAll
  static void writeAnExportWithSnapshots() throws Exception {
    export = dir.resolve("fleet.jsonl.zst");
    // Frames every 2,000 records, snapshots every 5,000: every other snapshot starts inside a frame.
    frames = SyntheticExport.write(export, EVENTS, START, 2_000);
    snapshots = ExportSnapshots.write(export, frames, 5_000, KEEP);
  }

  private static io.kvfleet.events.replay.ReplayResult replayFromTheStart(Until until, Optional<Duration> keep) {
    var replay = new Replay(keep.map(FleetState::keepingEnded).orElseGet(FleetState::new),
        ReplayOptions.defaults().until(until));
    ReplayRunner.read(new LogSource.File(export), replay::accept, false);
    return replay.finish();
  }

  private static String fromTheStart(Until until, Optional<Duration> keep) {
    return StateHash.of(replayFromTheStart(until, keep).state());
  }

  private static TimeTravel.Result travel(Until until, Optional<Duration> keep) {
    return TimeTravel.replay(export, ReplayOptions.defaults().until(until), keep, false);
  }

  @Test
  void keepsASnapshotEveryFiveThousandRecords() {
    assertThat(snapshots).extracting(p -> p.getFileName().toString())
        .containsExactly("at-00000000000000005000.kvsnap", "at-00000000000000010000.kvsnap",
            "at-00000000000000015000.kvsnap", "at-00000000000000020000.kvsnap", "at-00000000000000025000.kvsnap",
            "at-00000000000000030000.kvsnap");
  }

  @ParameterizedTest
  @ValueSource(longs = {0, 2_500, 4_999, 5_000, 9_999, 12_345, 20_001, 29_999, 40_000})
  void reachesTheHashOfAReplayFromTheStartAtEveryTime(long millis) {
    var until = new Until.AtTime(START.plusMillis(millis));

    var result = travel(until, KEEP);

    var reference = replayFromTheStart(until, KEEP);
    assertThat(StateHash.of(result.replay().state())).isEqualTo(StateHash.of(reference.state()));
    assertThat(result.records()).isEqualTo(reference.records());
    assertThat(result.start().snapshot().isPresent()).isEqualTo(millis >= 4_999);
  }

  /**
   * The snapshots fold every readable record; a replay with a trust file folds only signed ones. From a
   * snapshot it would show what it refuses from the start (this export is unsigned: nothing checks).
   */
  @Test
  void aReplayThatVerifiesSignaturesFoldsFromTheStart() {
    var router = io.kvfleet.events.trust.FleetKey.generate("router-0");
    var verifier = io.kvfleet.events.trust.Verifier.against(io.kvfleet.events.trust.TrustFile.of(
        new io.kvfleet.events.trust.KeyBinding("router-0", router.publicKey(), io.kvfleet.events.trust.Role.ROUTER,
            java.util.Set.of("router-0"), java.util.Set.of())));
    var until = new Until.AtTime(START.plusMillis(12_345));
    var options = ReplayOptions.defaults().until(until).verifying(verifier);

    var result = TimeTravel.replay(export, options, KEEP, false);

    var reference = new Replay(FleetState.keepingEnded(KEEP.orElseThrow()), options);
    ReplayRunner.read(new LogSource.File(export), reference::accept, false);
    assertThat(result.start().snapshot()).isEmpty();
    assertThat(result.start().skipped()).containsExactly(TimeTravel.UNVERIFIED);
    assertThat(StateHash.of(result.replay().state())).isEqualTo(StateHash.of(reference.finish().state()));
    assertThat(result.replay().state().counts().transfers()).isZero();
  }

  @Test
  void startsFromTheNewestSnapshotBeforeTheTimeAndReadsOnlyWhatFollows() {
    var result = travel(new Until.AtTime(START.plusMillis(12_345)), KEEP);

    assertThat(result.start().snapshot()).get().extracting(s -> s.header().records()).isEqualTo(10_000L);
    assertThat(result.replay().records()).isEqualTo(2_346);
    assertThat(result.records()).isEqualTo(12_346);
  }

  @Test
  void listsTheFramesUpToTheNextSnapshotForTheTailToReadInParallel() {
    var header = ExportSnapshots.list(export, new java.util.ArrayList<>()).stream()
        .filter(l -> l.header().records() == 5_000).findFirst().orElseThrow().header();

    assertThat(header.tailFrames()).extracting(ExportWriter.Frame::recordsBefore)
        .containsExactly(4_000L, 6_000L, 8_000L, 10_000L);
    assertThat(header.skip()).isEqualTo(1_000);
  }

  @Test
  void readsTheFramesInParallelAsOneStreamReadsThem() {
    var all = new java.util.ArrayList<ExportWriter.Frame>();
    all.add(new ExportWriter.Frame(0, 0));
    all.addAll(frames.subList(0, 7));
    var parallel = new Replay(FleetState.keepingEnded(KEEP.get()), ReplayOptions.defaults());

    FrameTail.read(export, all, 0, parallel::accept, 3);

    var reference = replayFromTheStart(new Until.End(), KEEP);
    assertThat(parallel.finish().records()).isEqualTo(reference.records());
    assertThat(StateHash.of(parallel.state())).isEqualTo(StateHash.of(reference.state()));
  }

  @Test
  void explainsATransferFromTheNewestSnapshotAsAReplayFromTheStartExplainsIt() {
    var until = START.plusMillis(12_345);
    String id = replayFromTheStart(new Until.AtTime(until), KEEP).state().transfers().stream()
        .filter(t -> t.status() == io.kvfleet.events.state.TransferStatus.COMPLETED)
        .filter(t -> t.requestedAt().isAfter(START.plusMillis(10_100)))
        .findFirst().orElseThrow().transferId();
    String[] args = {"explain", "transfer", id, "--file", export.toString(), "--until", until.toString(),
        "--keep-ended", "3s"};

    var travelled = Cli.run(append(args, "--from-snapshots"));
    var fromSnapshotJson = Cli.run(append(args, "--json", "--from-snapshots"));
    var fromStartJson = Cli.run(append(args, "--json"));

    assertThat(travelled.exitCode()).isZero();
    assertThat(travelled.out()).contains("Started from snapshot").contains("at-00000000000000010000.kvsnap")
        .contains("Transfer " + id + " completed");
    assertThat(fromSnapshotJson.out()).isEqualTo(fromStartJson.out()).contains(id);
  }

  @Test
  void explainsATransferRequestedBeforeTheNewestSnapshotWholeByDefault() {
    var until = START.plusMillis(12_345);
    String id = replayFromTheStart(new Until.AtTime(until), KEEP).state().transfers().stream()
        .filter(t -> t.status() == io.kvfleet.events.state.TransferStatus.COMPLETED)
        .filter(t -> t.requestedAt().isAfter(START.plusMillis(9_500)) && t.requestedAt().isBefore(START.plusMillis(9_900)))
        .findFirst().orElseThrow().transferId(); // requested before the snapshot after 10,000 records, still held at T

    var explained = Cli.run("explain", "transfer", id, "--file", export.toString(), "--until", until.toString(),
        "--keep-ended", "3s");

    assertThat(explained.exitCode()).as(explained.out()).isZero();
    assertThat(explained.out()).doesNotContain("Started from snapshot").contains("Transfer " + id);
  }

  private static String[] append(String[] args, String... more) {
    var all = java.util.Arrays.copyOf(args, args.length + more.length);
    System.arraycopy(more, 0, all, args.length, more.length);
    return all;
  }

  @Test
  void findsTheFramesTheWriterNotedFromTheExportsBytes() throws Exception {
    var expected = new java.util.ArrayList<>(frames);
    long records = replayFromTheStart(new Until.End(), KEEP).records();
    expected.add(new ExportWriter.Frame(records, Files.size(export))); // where the last, partial frame ends

    assertThat(ExportFrames.scan(export)).containsExactlyElementsOf(expected);
  }

  @ParameterizedTest
  @ValueSource(longs = {1, 4_999, 5_000, 17_777, 30_000})
  void countsRecordsFromTheStartOfTheExport(long records) {
    var until = new Until.AfterCount(records);

    var result = travel(until, KEEP);

    assertThat(StateHash.of(result.replay().state())).isEqualTo(fromTheStart(until, KEEP));
    assertThat(result.records()).isEqualTo(records);
  }

  @Test
  void foldsFromTheStartWhenNoSnapshotKeepsTheSameWindow() {
    var until = new Until.AtTime(START.plusMillis(20_000));

    var result = travel(until, Optional.empty());

    assertThat(result.start().snapshot()).isEmpty();
    assertThat(StateHash.of(result.replay().state())).isEqualTo(fromTheStart(until, Optional.empty()));
  }

  @Test
  void skipsACorruptSnapshotWithItsReasonAndStartsFromAnOlderOne() throws Exception {
    Path copy = dir.resolve("corrupt.jsonl.zst");
    Files.copy(export, copy);
    Path snaps = Files.createDirectories(ExportSnapshots.dirOf(copy));
    for (Path p : snapshots) {
      Files.copy(p, snaps.resolve(p.getFileName()));
    }
    Path newest = snaps.resolve("at-00000000000000015000.kvsnap");
    try (var file = Files.newByteChannel(newest, StandardOpenOption.WRITE)) {
      file.position(Files.size(newest) - 10);
      file.write(java.nio.ByteBuffer.wrap(new byte[] {1, 2, 3}));
    }
    var until = new Until.AtTime(START.plusMillis(17_000));

    var result = TimeTravel.replay(copy, ReplayOptions.defaults().until(until), KEEP, false);

    assertThat(result.start().skipped()).singleElement().asString()
        .startsWith("at-00000000000000015000.kvsnap: CRC-32C of the state is");
    assertThat(result.start().snapshot()).get().extracting(s -> s.header().records()).isEqualTo(10_000L);
    assertThat(StateHash.of(result.replay().state())).isEqualTo(fromTheStart(until, KEEP));
  }

  @Test
  void refusesTheSnapshotsOfAnotherExport() throws Exception {
    Path other = dir.resolve("other.jsonl.zst");
    SyntheticExport.write(other, 6_000, START, 2_000);
    Path snaps = Files.createDirectories(ExportSnapshots.dirOf(other));
    Files.copy(snapshots.getFirst(), snaps.resolve(snapshots.getFirst().getFileName()));

    var result = TimeTravel.replay(other, ReplayOptions.defaults().until(new Until.AtTime(START.plusMillis(5_500))),
        KEEP, false);

    assertThat(result.start().snapshot()).isEmpty();
    assertThat(result.start().skipped()).singleElement().asString().contains("belongs to the export created");
  }
}
