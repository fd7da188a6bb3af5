package io.kvfleet.events.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kvfleet.events.Envelope;
import io.kvfleet.events.EventType;
import io.kvfleet.events.Samples;
import io.kvfleet.events.TransferCompleted;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Consumer;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
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

  @ParameterizedTest
  @EnumSource(value = EventType.class, names = {"TRANSFER_REQUESTED", "TRANSFER_COMPLETED", "TRANSFER_DISPATCHED"})
  void streamsVersionOneDataWithExactlyItsFieldsAsTheTreeReaderReadsIt(EventType type) {
    Envelope envelope = versionOneEnvelope(type);
    byte[] bytes = versionOne(envelope, data -> { });

    assertThat(streaming.read(bytes)).contains(envelope);
    assertThat(tree.readTree(bytes)).isEqualTo(envelope);
  }

  @ParameterizedTest
  @EnumSource(value = EventType.class, names = {"TRANSFER_REQUESTED", "TRANSFER_COMPLETED", "TRANSFER_DISPATCHED"})
  void leavesVersionOneDataWithAnExtensionFieldToTheTreeReader(EventType type) {
    Envelope envelope = versionOneEnvelope(type);
    byte[] bytes = versionOne(envelope, data -> data.put("zone", "eu-1"));

    assertThat(streaming.read(bytes)).isEmpty();
    assertThat(new EventCodec().decode(bytes)).isEqualTo(new Decoded.Event(envelope));
  }

  /** A version-1 event of {@code type}: what its version-1 constructor makes. */
  private static Envelope versionOneEnvelope(EventType type) {
    return Samples.envelope(switch (type) {
      case TRANSFER_COMPLETED -> new TransferCompleted("xfer-1", "prefill-0", 65_536, 182_000, "ucx/tcp", "");
      default -> Samples.of(type);
    });
  }

  /** {@code envelope}'s document as version 1 writes it (the fields version 2 added left out), then edited. */
  private static byte[] versionOne(Envelope envelope, Consumer<ObjectNode> editData) {
    var added = switch (EventType.of(envelope.data())) {
      case TRANSFER_DISPATCHED -> List.of("sourceEpoch", "order", "orderKeyId", "orderSignature");
      default -> List.of("requestId", "parts", "recomputed");
    };
    return Documents.edited(envelope, node -> {
      node.put("schemaversion", 1);
      ObjectNode data = (ObjectNode) node.get("data");
      data.remove(added);
      editData.accept(data);
    });
  }

  @Test
  void leavesVersionOneDataThatCarriesALaterVersionsFieldToTheTreeReader() {
    Envelope envelope = versionOneEnvelope(EventType.TRANSFER_COMPLETED);
    byte[] bytes = versionOne(envelope, data -> data.putArray("parts"));

    assertThat(streaming.read(bytes)).isEmpty();
    assertThat(new EventCodec().decode(bytes)).isEqualTo(new Decoded.Event(envelope));
  }

  @Test
  void leavesAnUnknownFieldInsideAVersionOneRangeToTheTreeReader() {
    Envelope envelope = Samples.envelope(Samples.of(EventType.TRANSFER_REQUESTED));
    byte[] bytes = Documents.edited(envelope,
        node -> ((ObjectNode) node.get("data").get("ranges").get(0)).put("hint", "hot"));

    assertThat(streaming.read(bytes)).isEmpty();
    assertThat(new EventCodec().decode(bytes)).isEqualTo(new Decoded.Event(envelope));
  }

  @Test
  void leavesVersionOneDataWithoutOneOfItsFieldsToTheTreeReader() {
    byte[] bytes = Documents.edited(Samples.envelope(Samples.of(EventType.TRANSFER_REQUESTED)),
        node -> ((ObjectNode) node.get("data")).remove("deadlineMillis"));

    assertThat(streaming.read(bytes)).isEmpty();
    assertThat(catchThrowable(() -> tree.readTree(bytes)))
        .isInstanceOf(Malformation.class)
        .hasMessageContaining("deadlineMillis");
  }

  @ParameterizedTest
  @org.junit.jupiter.params.provider.CsvSource(delimiter = '|', value = {
      "an attribute             | 1 | \"type\":\"io.kvfleet.transfer.requested\" | ,\"type\":\"io.kvfleet.transfer.requested\"",
      "an extension attribute   | 1 | \"subject\":\"xfer-1\"                     | ,\"zone\":\"a\",\"zone\":\"b\"",
      "a version 1 data field   | 1 | \"transferId\":\"xfer-1\"                  | ,\"transferId\":\"xfer-1\"",
      "a range's field          | 1 | \"length\":32768                           | ,\"length\":32768",
      "a version 2 data field   | 2 | \"requestId\":\"room-1\"                   | ,\"requestId\":\"room-1\"",
      "a part's field           | 2 | \"component\":\"kv\"                       | ,\"component\":\"kv\"",
      "an unknown data object   | 2 | \"data\":{                                 | \"hint\":{\"x\":1,\"x\":1},",
      "an object in an array    | 2 | \"data\":{                                 | \"hints\":[[{\"x\":1,\"x\":1}]],"})
  void leavesARepeatedNameAnywhereToTheTreeReaderWhichRefusesIt(String where, int version, String at, String insert) {
    var event = version == 1 ? Samples.of(EventType.TRANSFER_REQUESTED) : Samples.newest(EventType.TRANSFER_REQUESTED);
    String document = new String(Documents.CODEC.encode(Samples.envelope(event)), StandardCharsets.UTF_8);
    int end = document.indexOf(at) + at.length();
    assertThat(end).as(where).isGreaterThan(at.length());
    byte[] bytes = (document.substring(0, end) + insert + document.substring(end))
        .getBytes(StandardCharsets.UTF_8);

    assertThat(streaming.read(bytes)).as(where).isEmpty();
    assertThat(new EventCodec().decode(bytes)).as(where)
        .isInstanceOfSatisfying(Decoded.Malformed.class, m -> assertThat(m.reason()).contains("Duplicate field"));
  }

  @Provide
  Arbitrary<Integer> positions() {
    return Arbitraries.integers().between(0, Integer.MAX_VALUE);
  }

  @Property
  void readsEveryFractionAsInstantParseDoes(
      @ForAll @IntRange(min = 0, max = 2_000_000_000) int seconds,
      @ForAll @IntRange(min = 0, max = 999_999_999) int nanos) {
    String text = Instant.ofEpochSecond(seconds, nanos).toString();

    assertThat(new Timestamps().parse(text)).isEqualTo(Instant.parse(text));
  }

  /** Any digits where the shape has them, real dates or not: the formatter's answer, or none where it refuses. */
  @Property
  void readsTheSecondAsTheIsoFormatterDoes(@ForAll("shapedTimes") String text) {
    Instant expected;
    try {
      expected = OffsetDateTime.parse(text, DateTimeFormatter.ISO_OFFSET_DATE_TIME).toInstant();
    } catch (DateTimeParseException e) {
      expected = null;
    }

    assertThat(new Timestamps().parse(text)).as(text).isEqualTo(expected);
  }

  @Provide
  Arbitrary<String> shapedTimes() {
    Arbitrary<String> year = Arbitraries.oneOf(Arbitraries.strings().numeric().ofLength(4), Arbitraries.of("2024",
        "2026", "1900", "2000", "0000"));
    Arbitrary<String> twoDigits = Arbitraries.strings().numeric().ofLength(2);
    Arbitrary<String> month = Arbitraries.oneOf(twoDigits, Arbitraries.integers().between(1, 12)
        .map(m -> String.format(Locale.ROOT, "%02d", m)));
    Arbitrary<String> day = Arbitraries.oneOf(twoDigits, Arbitraries.of("28", "29", "30", "31"));
    Arbitrary<String> hour = Arbitraries.oneOf(twoDigits, Arbitraries.of("00", "23", "24"));
    Arbitrary<String> minuteOrSecond = Arbitraries.oneOf(twoDigits, Arbitraries.of("00", "59", "60"));
    return Combinators.combine(year, month, day, hour, minuteOrSecond, minuteOrSecond)
        .as((y, mo, d, h, mi, se) -> y + "-" + mo + "-" + d + "T" + h + ":" + mi + ":" + se + ".25Z");
  }

  @Test
  void refusesDaysAndTimesThatDoNotExist() {
    var timestamps = new Timestamps();

    assertThat(Arrays.asList(
            timestamps.parse("2026-02-29T00:00:00Z"),
            timestamps.parse("2026-04-31T00:00:00Z"),
            timestamps.parse("2026-00-10T00:00:00Z"),
            timestamps.parse("2026-11-30T24:00:00Z"),
            timestamps.parse("2026-11-30T23:60:00Z"),
            timestamps.parse("2026-11-30T23:59:60Z"),
            timestamps.parse("1900-02-29T00:00:00Z")))
        .containsOnlyNulls();
    for (String real : List.of("2024-02-29T23:59:59.5Z", "2000-02-29T00:00:00Z", "0000-02-29T12:00:00Z",
        "0000-01-01T00:00:00Z", "9999-12-31T23:59:59.999999999Z")) {
      assertThat(timestamps.parse(real)).as(real).isEqualTo(Instant.parse(real));
    }
  }

  @Test
  void keepsTheLastSecondButReadsEachFraction() {
    var timestamps = new Timestamps();

    assertThat(timestamps.parse("2026-11-30T17:49:00.5Z")).isEqualTo(Instant.parse("2026-11-30T17:49:00.5Z"));
    assertThat(timestamps.parse("2026-11-30T17:49:00.000000007Z"))
        .isEqualTo(Instant.parse("2026-11-30T17:49:00.000000007Z"));
    assertThat(timestamps.parse("2026-11-30T17:49:01Z")).isEqualTo(Instant.parse("2026-11-30T17:49:01Z"));
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
