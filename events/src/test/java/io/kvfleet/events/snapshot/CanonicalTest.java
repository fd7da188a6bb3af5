package io.kvfleet.events.snapshot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kvfleet.events.Envelope;
import io.kvfleet.events.state.FleetState;
import io.kvfleet.events.state.Histories;
import io.kvfleet.events.state.StateImage;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

/** The canonical form is byte for byte the one {@link CanonicalReference} writes: earlier snapshots carry its hashes. */
class CanonicalTest {

  @Property(tries = 1_000)
  void encodesEveryValueAsTheReferenceDoes(@ForAll long seed) {
    Object value = new RandomValues(seed).value(3);

    assertSameForm(value);
  }

  @Property(tries = 500)
  void hashesEveryFoldedStateAsTheReferenceDoes(@ForAll("histories") List<Envelope> history) {
    StateImage image = FleetState.fold(history).image();

    assertSameForm(StateHash.parts(image));
    assertThat(StateHash.of(image)).isEqualTo(ReferenceStateHash.reference(image));
  }

  @Provide
  Arbitrary<List<Envelope>> histories() {
    return Histories.histories();
  }

  @Test
  void sortsStringKeysByTheirLengthFirstAsSignedBytes() {
    Map<Object, Object> map = new HashMap<>();
    for (int length : new int[] {0, 1, 2, 127, 128, 129, 255, 256, 300, 383, 384, 65_535, 65_536}) {
      map.put("a".repeat(length), length);
      map.put("b".repeat(length), -length);
    }
    map.put("é", 1);
    Map<Object, Object> ascii = new HashMap<>(map);
    ascii.remove("é");

    assertSameForm(map);
    assertSameForm(ascii);
  }

  @Test
  void writesStringsAcrossTheDigestBufferAsTheReferenceDoes() {
    List<Object> values = new ArrayList<>();
    for (int length = (1 << 16) - 8; length <= (1 << 16) + 2; length++) {
      values.add("x".repeat(length));
      values.add("é".repeat(length / 2));
      values.add(Instant.ofEpochSecond(length, length));
    }

    assertSameForm(values);
  }

  @Test
  void keepsTheOrderOfKeysWithTheSameBytesAsTheReferenceDoes() {
    Map<Object, Object> map = new LinkedHashMap<>();
    map.put(5L, "long");
    map.put(5, "int");
    map.put("\uD800", "high");
    map.put("\uDC00", "low");
    map.put("?", "question");
    map.put(null, null);

    assertSameForm(map);
  }

  @Test
  void hashesAMapLargeEnoughToBeWrittenOnEveryCoreAsTheReferenceDoes() {
    Map<Object, Object> map = new HashMap<>();
    var random = new java.util.Random(7);
    for (int i = 0; i < Canonical.PARALLEL_ENTRIES * 3 + 17; i++) {
      map.put("transfer-" + random.nextLong(), new RandomValues(i).value(2)); // a value of its own: chunks out of order differ
    }
    map.put("\uD800", "high"); // three keys of the same UTF-8: the parallel sort must keep their order
    map.put("\uDC00", "low");
    map.put("?", "question");

    assertThat(Canonical.sha256(map)).isEqualTo(CanonicalReference.sha256(map));
    var nested = List.of(Map.of("inner", map), map);
    assertThat(Canonical.sha256(nested)).isEqualTo(CanonicalReference.sha256(nested));
  }

  @Test
  void aValueWithNoFormInALargeMapFailsTheHashOnTheCallingThread() {
    Map<Object, Object> map = new HashMap<>();
    for (int i = 0; i < Canonical.PARALLEL_ENTRIES * 2; i++) {
      map.put("transfer-" + i, (long) i);
    }
    map.put("transfer-7777x", new Object()); // written by a worker, in some chunk of the middle

    // A chunk written on another thread comes back wrapped by the fork-join pool: the reason is the same.
    assertThatThrownBy(() -> Canonical.sha256(map)).isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("no canonical form for class java.lang.Object");
    map.put("transfer-7777x", 7_777L); // the pool is not left stuck: the next hash is whole
    assertThat(Canonical.sha256(map)).isEqualTo(CanonicalReference.sha256(map));
  }

  private static void assertSameForm(Object value) {
    assertThat(Canonical.encode(value)).isEqualTo(CanonicalReference.encode(value));
    assertThat(Canonical.sha256(value)).isEqualTo(CanonicalReference.sha256(value));
  }
}
