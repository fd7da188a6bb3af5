package io.kvfleet.events.codec;

import static org.assertj.core.api.Assertions.assertThat;

import io.kvfleet.events.EventType;
import io.kvfleet.events.Samples;
import java.util.Arrays;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

class EnvelopeDeserializerPropertyTest {
  private final EnvelopeDeserializer deserializer = new EnvelopeDeserializer();

  @Property
  void neverThrowsNorReturnsNullForArbitraryBytes(@ForAll byte[] bytes) {
    assertThat(deserializer.deserialize("kvfleet.nodes", bytes)).isNotNull();
  }

  @Property
  void neverThrowsNorReturnsNullForCorruptedEvents(
      @ForAll EventType type, @ForAll("positions") int position, @ForAll byte replacement) {
    byte[] bytes = Documents.CODEC.encode(Samples.envelope(Samples.of(type)));
    int at = position % bytes.length;
    byte[] flipped = bytes.clone();
    flipped[at] = replacement;

    assertThat(deserializer.deserialize("kvfleet.nodes", flipped)).isNotNull();
    assertThat(deserializer.deserialize("kvfleet.nodes", Arrays.copyOf(bytes, at))).isNotNull();
  }

  @Property
  void neverThrowsNorReturnsNullForJsonShapedNoise(@ForAll("jsonish") String text) {
    assertThat(deserializer.deserialize("kvfleet.nodes", text.getBytes())).isNotNull();
  }

  @Provide
  Arbitrary<Integer> positions() {
    return Arbitraries.integers().between(0, Integer.MAX_VALUE);
  }

  @Provide
  Arbitrary<String> jsonish() {
    return Arbitraries.strings().withChars("{}[]\":,0123456789.-eE tfnulrsaidpcvy\\").ofMaxLength(80);
  }
}
