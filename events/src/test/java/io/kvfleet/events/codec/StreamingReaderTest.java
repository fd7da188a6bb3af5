package io.kvfleet.events.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kvfleet.events.Envelope;
import io.kvfleet.events.EventType;
import io.kvfleet.events.Samples;
import java.util.Arrays;
import java.util.Optional;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class StreamingReaderTest {
  private final StreamingReader streaming = new StreamingReader(Json.mapper());
  private final CloudEventReader tree = new CloudEventReader(Json.mapper());

  @ParameterizedTest
  @EnumSource(EventType.class)
  void readsWhatKvfleetWritesAsTheTreeReaderDoes(EventType type) {
    Envelope envelope = Samples.envelope(Samples.of(type));
    byte[] bytes = Documents.CODEC.encode(envelope);

    assertThat(streaming.read(bytes)).contains(envelope);
    assertThat(tree.readTree(bytes)).isEqualTo(envelope);
  }

  @Property
  void acceptsACorruptedDocumentOnlyWhereTheTreeReaderReadsTheSameEnvelope(
      @ForAll EventType type, @ForAll("positions") int position, @ForAll byte replacement) {
    byte[] bytes = Documents.CODEC.encode(Samples.envelope(Samples.of(type)));
    byte[] flipped = bytes.clone();
    flipped[position % bytes.length] = replacement;

    Optional<Envelope> streamed = streaming.read(flipped);
    if (streamed.isPresent()) {
      assertThat(tree.readTree(flipped)).isEqualTo(streamed.get());
    } else {
      assertThat(new EventCodec().decode(flipped)).isNotNull();
    }
  }

  @Test
  void leavesDataBeforeItsTypeToTheTreeReader() {
    Envelope envelope = Samples.envelope(Samples.of(EventType.TRANSFER_COMPLETED));
    ObjectNode written = Documents.json(envelope);
    ObjectNode dataFirst = Documents.json(envelope).removeAll();
    dataFirst.set("data", written.get("data"));
    written.properties().forEach(e -> dataFirst.set(e.getKey(), e.getValue()));
    byte[] bytes = Documents.bytes(dataFirst);

    assertThat(streaming.read(bytes)).isEmpty();
    assertThat(new EventCodec().decode(bytes)).isEqualTo(new Decoded.Event(envelope));
  }

  @Test
  void leavesEveryMalformationToTheTreeReader() {
    byte[] badData = Documents.edited(Samples.envelope(Samples.of(EventType.TRANSFER_COMPLETED)),
        node -> ((ObjectNode) node.get("data")).put("bytes", -1));

    assertThat(streaming.read(badData)).isEmpty();
    assertThat(catchThrowable(() -> tree.readTree(badData)))
        .isInstanceOf(Malformation.class)
        .hasMessageStartingWith("invalid data for");
  }

  @Provide
  Arbitrary<Integer> positions() {
    return Arbitraries.integers().between(0, Integer.MAX_VALUE);
  }

  @Property
  void readsEveryFractionAsInstantParseDoes(
      @ForAll @IntRange(min = 0, max = 2_000_000_000) int seconds,
      @ForAll @IntRange(min = 0, max = 999_999_999) int nanos) {
    String text = java.time.Instant.ofEpochSecond(seconds, nanos).toString();

    assertThat(new Timestamps().parse(text)).isEqualTo(java.time.Instant.parse(text));
  }

  @Test
  void keepsTheLastSecondButReadsEachFraction() {
    var timestamps = new Timestamps();

    assertThat(timestamps.parse("2026-11-30T17:49:00.5Z")).isEqualTo(java.time.Instant.parse("2026-11-30T17:49:00.5Z"));
    assertThat(timestamps.parse("2026-11-30T17:49:00.000000007Z"))
        .isEqualTo(java.time.Instant.parse("2026-11-30T17:49:00.000000007Z"));
    assertThat(timestamps.parse("2026-11-30T17:49:01Z")).isEqualTo(java.time.Instant.parse("2026-11-30T17:49:01Z"));
  }

  @Test
  void leavesOtherShapesOfTimeToTheTreeReader() {
    var timestamps = new Timestamps();

    assertThat(Arrays.asList(
            timestamps.parse("2026-11-30t17:49:00z"),
            timestamps.parse("2026-11-30T17:49:00+01:00"),
            timestamps.parse("2026-11-30T17:49:00.Z"),
            timestamps.parse("2026-11-30T17:49:00.1234567890Z"),
            timestamps.parse("2026-13-30T17:49:00Z"),
            timestamps.parse("2026-11-30T17:49")))
        .containsOnlyNulls();
  }
}
