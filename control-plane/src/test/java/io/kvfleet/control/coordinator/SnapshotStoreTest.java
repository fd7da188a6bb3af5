package io.kvfleet.control.coordinator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kvfleet.events.Envelope;
import io.kvfleet.events.PeerHeartbeat;
import io.kvfleet.events.PeerJoined;
import io.kvfleet.events.replay.FoldOrder;
import io.kvfleet.events.snapshot.InvalidSnapshotException;
import io.kvfleet.events.snapshot.StateHash;
import io.kvfleet.events.snapshot.StateSnapshot;
import io.kvfleet.events.state.FleetState;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SnapshotStoreTest {
  private static final Instant T0 = Instant.parse("2025-06-01T12:00:00Z");
  private static final java.util.SortedMap<String, String> IDS = new java.util.TreeMap<>(java.util.Map.of(
      "kvfleet.nodes", "id-n", "kvfleet.transfers", "id-t"));
  @TempDir Path dir;

  /** A state of {@code beats} heartbeats after a join, and the order of the records it folded. */
  private static StateSnapshot state(int beats) {
    var state = new FleetState();
    state.apply(new Envelope("j", "d0", 1, 1, T0, "", new PeerJoined("d0", 1, "h", "", List.of())));
    for (int i = 0; i < beats; i++) {
      state.apply(new Envelope("b" + i, "d0", 1, 2 + i, T0.plusSeconds(i), "", new PeerHeartbeat("d0", 1, 1_000)));
    }
    return StateSnapshot.of(state);
  }

  private static FoldOrder order(int records) {
    return new FoldOrder(List.of(new FoldOrder.Run("kvfleet.nodes", 1, 0, records - 1)));
  }

  private Path write(SnapshotStore store, int beats) throws Exception {
    return store.write("c0", state(beats), order(beats + 1), T0.plusSeconds(beats), IDS);
  }

  @Test
  void loadsTheNewestSnapshotWithItsStateOffsetsAndOrder() throws Exception {
    var store = new SnapshotStore(dir);
    write(store, 2);
    write(store, 5);

    var loaded = store.loadNewest("c0");

    assertThat(loaded.skipped()).isEmpty();
    assertThat(loaded.snapshot()).hasValueSatisfying(s -> {
      assertThat(s.state().appliedCount()).isEqualTo(6);
      assertThat(StateHash.of(s.state())).isEqualTo(state(5).hash());
      assertThat(s.header().nextOffsets()).containsEntry("kvfleet.nodes-1", 6L);
      assertThat(s.header().order()).isEqualTo(order(6));
    });
  }

  @Test
  void skipsACorruptSnapshotSaysWhyAndFallsBackToAnOlderOne() throws Exception {
    var store = new SnapshotStore(dir);
    write(store, 2);
    Path newest = write(store, 5);
    byte[] bytes = Files.readAllBytes(newest);
    bytes[bytes.length - 3] ^= 0x01;
    Files.write(newest, bytes);

    var loaded = store.loadNewest("c0");

    assertThat(loaded.skipped()).singleElement().satisfies(s -> {
      assertThat(s.file()).isEqualTo(newest);
      assertThat(s.reason()).contains("CRC-32C");
    });
    assertThat(loaded.snapshot()).hasValueSatisfying(s -> assertThat(s.state().appliedCount()).isEqualTo(3));
  }

  /** A snapshot written before topic ids were recorded read as "not a kvfleet snapshot". */
  @Test
  void namesTheVersionOfASnapshotWrittenByAnOlderBuild() throws Exception {
    var store = new SnapshotStore(dir);
    Path file = write(store, 2);
    String text = new String(Files.readAllBytes(file), StandardCharsets.ISO_8859_1);
    Files.write(file, text.replaceFirst("\"version\":2", "\"version\":1")
        .replaceFirst("\"topicIds\":\\{[^}]*\\},", "").getBytes(StandardCharsets.ISO_8859_1));

    var loaded = store.loadNewest("c0");

    assertThat(loaded.snapshot()).isEmpty();
    assertThat(loaded.skipped()).singleElement().satisfies(s -> assertThat(s.reason())
        .contains("is kvfleet-snapshot version 1, this build reads version 2").contains("another build"));
  }

  @Test
  void skipsASnapshotOfAnotherFormatVersion() throws Exception {
    var store = new SnapshotStore(dir);
    Path file = write(store, 2);
    String text = new String(Files.readAllBytes(file), StandardCharsets.ISO_8859_1);
    Files.write(file, text.replaceFirst("\"version\":2", "\"version\":9").getBytes(StandardCharsets.ISO_8859_1));

    var loaded = store.loadNewest("c0");

    assertThat(loaded.snapshot()).isEmpty();
    assertThat(loaded.skipped()).singleElement()
        .satisfies(s -> assertThat(s.reason()).contains("kvfleet-snapshot version 9, this build reads"));
  }

  @Test
  void refusesATruncatedSnapshotAndOneWhoseOrderDoesNotMatchItsOffsets() throws Exception {
    var store = new SnapshotStore(dir);
    Path file = write(store, 2);
    byte[] bytes = Files.readAllBytes(file);
    Files.write(dir.resolve("truncated"), java.util.Arrays.copyOf(bytes, bytes.length - 10));
    String text = new String(bytes, StandardCharsets.ISO_8859_1);
    Files.write(dir.resolve("inconsistent"),
        text.replaceFirst("\"kvfleet.nodes-1\":3", "\"kvfleet.nodes-1\":9").getBytes(StandardCharsets.ISO_8859_1));

    assertThatThrownBy(() -> SnapshotStore.read(dir.resolve("truncated")))
        .isInstanceOf(InvalidSnapshotException.class).hasMessageContaining("bytes of state, the header says");
    assertThatThrownBy(() -> SnapshotStore.read(dir.resolve("inconsistent")))
        .isInstanceOf(InvalidSnapshotException.class).hasMessageContaining("the fold order ends at");
  }

  @Test
  void keepsOnlyTheNewestFewSnapshotsOfACoordinator() throws Exception {
    var store = new SnapshotStore(dir);
    for (int beats = 1; beats <= 5; beats++) {
      write(store, beats);
    }
    store.write("c1", state(1), order(2), T0, IDS);

    assertThat(store.files("c0")).hasSize(SnapshotStore.KEEP)
        .allSatisfy(f -> assertThat(f.getFileName().toString()).startsWith("snapshot-c0-"));
    assertThat(store.files("c1")).hasSize(1);
    assertThat(store.loadNewest("c0").snapshot()).hasValueSatisfying(s -> assertThat(s.header().applied()).isEqualTo(6));
  }
}
