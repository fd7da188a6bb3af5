package io.kvfleet.events.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import io.kvfleet.events.ByteRange;
import io.kvfleet.events.Envelope;
import io.kvfleet.events.EventType;
import io.kvfleet.events.FleetEvent;
import io.kvfleet.events.Samples;
import io.kvfleet.events.TransferCompleted;
import io.kvfleet.events.TransferOp;
import io.kvfleet.events.TransferRequested;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.stream.Stream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The scan of a document as the codec writes it against Jackson's readers (the streaming reader,
 * then the tree): wherever the scan gives an envelope, Jackson reads the same one.
 */
class PlainEnvelopeTest {
  private final PlainEnvelope plain = new PlainEnvelope(Json.mapper());
  private final StreamingReader streaming = new StreamingReader(Json.mapper());
  private final CloudEventReader tree = new CloudEventReader(Json.mapper());

  /** The common events of a log, in the versions they are written at. */
  private static final List<FleetEvent> COMMON = List.of(Samples.of(EventType.TRANSFER_REQUESTED),
      Samples.newest(EventType.TRANSFER_REQUESTED), Samples.of(EventType.TRANSFER_DISPATCHED),
      Samples.of(EventType.TRANSFER_COMPLETED),
      new TransferCompleted("xfer-1", "prefill-0", 65_536, 182_000, "ucx/tcp", "3a69cc5f"),
      Samples.of(EventType.PEER_HEARTBEAT));

  @ParameterizedTest
  @EnumSource(EventType.class)
  void readsEveryTypeAsJacksonDoesWhereItReadsItAtAll(EventType type) {
    for (FleetEvent event : List.of(Samples.of(type), Samples.newest(type))) {
      byte[] bytes = Documents.CODEC.encode(Samples.envelope(event));
      Envelope scanned = plain.read(bytes);
      if (scanned != null) {
        assertThat(scanned).isEqualTo(Samples.envelope(event)).isEqualTo(jackson(bytes));
      }
    }
  }

  @Test
  void scansTheCommonEventsOfALogWithoutJackson() {
    for (FleetEvent event : COMMON) {
      Envelope envelope = Samples.envelope(event);
      assertThat(plain.read(Documents.CODEC.encode(envelope))).as(event.wireType()).isEqualTo(envelope);
    }
  }

  @Test
  void scansASignedDocumentAsJacksonReadsIt() {
    for (FleetEvent event : COMMON) {
      String written = new String(Documents.CODEC.encode(Samples.envelope(event)), StandardCharsets.US_ASCII);
      // As SignedDocument.sign appends them: the key's id, then the signature, after the data.
      byte[] signed = (written.substring(0, written.length() - 1)
          + ",\"keyid\":\"decode-0\",\"signature\":\"q83vEjRWeJA-_w\"}").getBytes(StandardCharsets.US_ASCII);
      assertThat(plain.read(signed)).as(event.wireType()).isEqualTo(Samples.envelope(event)).isEqualTo(jackson(signed));
    }
  }

  @Test
  void scansNothingForAMapperThatBindsOtherwise() {
    byte[] bytes = Documents.CODEC.encode(Samples.envelope(Samples.of(EventType.TRANSFER_COMPLETED)));
    assertThat(PlainEnvelope.bindsAsTheScanAssumes(Json.mapper())).isTrue();
    for (ObjectMapper other : List.of(
        Json.mapper().rebuild().addMixIn(TransferCompleted.class, Object.class).build(),
        Json.mapper().rebuild().propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE).build(),
        Json.mapper().rebuild().enable(DeserializationFeature.READ_ENUMS_USING_TO_STRING).build(),
        Json.mapper().rebuild().enable(DeserializationFeature.FAIL_ON_NULL_CREATOR_PROPERTIES).build(),
        Json.mapper().rebuild().enable(MapperFeature.ACCEPT_CASE_INSENSITIVE_ENUMS).build(),
        Json.mapper().rebuild().disable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES).build())) {
      assertThat(new PlainEnvelope(other).read(bytes)).isNull();
    }
    assertThat(new PlainEnvelope(Json.mapper()).read(bytes)).isNotNull();
  }

  @Test
  void leavesAnythingButThePlainFormToJackson() {
    Envelope envelope = Samples.envelope(Samples.of(EventType.TRANSFER_COMPLETED));
    String written = new String(Documents.CODEC.encode(envelope), StandardCharsets.UTF_8);
    for (String other : List.of(written.replace(",", ", "), written.replace("\"xfer-1\"", "\"xfer\\u002d1\""),
        written + " ", written.replace("\"epoch\":\"3\"", "\"epoch\":3"),
        written.replace("\"correlationid\"", "\"zone\":\"eu\",\"correlationid\""),
        written.replace("\"bytes\":65536", "\"bytes\":65536.0"))) {
      byte[] bytes = other.getBytes(StandardCharsets.UTF_8);
      assertThat(plain.read(bytes)).as(other).isNull();
      assertThat(new EventCodec().decode(bytes)).as(other).isNotNull();
    }
  }

  /** A record Jackson binds by a rule of its own: a renamed property. */
  record Renamed(@com.fasterxml.jackson.annotation.JsonProperty("other") String name) {}

  @Test
  void leavesATypeWithJacksonAnnotationsToJackson() {
    byte[] bytes = "{\"name\":\"a\"}".getBytes(StandardCharsets.US_ASCII);
    assertThat(catchThrowable(() -> PlainRecord.read(new PlainJson(bytes), Renamed.class)))
        .isSameAs(PlainJson.NOT_PLAIN);
  }

  @Property(tries = 2000)
  void readsRandomValuesAsJacksonDoes(@ForAll("texts") String id, @ForAll("texts") String producer,
      @ForAll long epoch, @ForAll long sequence, @ForAll("texts") String text, @ForAll long number,
      @ForAll int small, @ForAll boolean completed) {
    Envelope envelope;
    try {
      FleetEvent data = completed ? new TransferCompleted(text, producer, number, small, text, id)
          : new TransferRequested(text, "prefill-0", Math.abs(small) + 1L, id, producer, 3, text, TransferOp.READ,
              List.of(new ByteRange(Math.abs(number / 2), 0, Math.abs(small) + 1L)), number, small % 2 == 0);
      envelope = new Envelope(id, producer, epoch, sequence, Instant.ofEpochMilli(Math.abs(number) % 4_102_444_800_000L),
          text, data);
    } catch (RuntimeException e) {
      return; // values no event holds
    }
    byte[] bytes = Documents.CODEC.encode(envelope);
    Envelope scanned = plain.read(bytes);
    if (scanned != null) {
      assertThat(scanned).isEqualTo(envelope).isEqualTo(jackson(bytes));
    }
  }

  @Property(tries = 5000)
  void acceptsAChangedDocumentOnlyWhereJacksonReadsTheSameEnvelope(@ForAll("events") FleetEvent event,
      @ForAll("positions") int position, @ForAll("bytes") byte b, @ForAll("edits") int edit) {
    byte[] bytes = Documents.CODEC.encode(Samples.envelope(event));
    int at = position % bytes.length;
    byte[] changed = switch (edit) {
      case 0 -> { // replaced
        byte[] copy = bytes.clone();
        copy[at] = b;
        yield copy;
      }
      case 1 -> { // inserted
        byte[] copy = new byte[bytes.length + 1];
        System.arraycopy(bytes, 0, copy, 0, at);
        copy[at] = b;
        System.arraycopy(bytes, at, copy, at + 1, bytes.length - at);
        yield copy;
      }
      default -> { // removed
        byte[] copy = new byte[bytes.length - 1];
        System.arraycopy(bytes, 0, copy, 0, at);
        System.arraycopy(bytes, at + 1, copy, at, bytes.length - at - 1);
        yield copy;
      }
    };
    Envelope scanned = plain.read(changed);
    if (scanned != null) {
      assertThat(jackson(changed)).as(new String(changed, StandardCharsets.UTF_8)).isEqualTo(scanned);
    }
  }

  /** What Jackson's readers make of the document; null where they refuse it. */
  private Envelope jackson(byte[] bytes) {
    try {
      return streaming.read(bytes).orElseGet(() -> tree.readTree(bytes));
    } catch (Malformation e) {
      return null;
    }
  }

  @Provide
  Arbitrary<String> texts() {
    return Arbitraries.oneOf(Arbitraries.strings().ofMaxLength(12),
        Arbitraries.strings().withChars("azAZ09-_./ \"\\\u007f\u00e9").ofMaxLength(12), Arbitraries.of("", "0", "-1"));
  }

  @Provide
  Arbitrary<FleetEvent> events() {
    return Arbitraries.of(Stream.concat(COMMON.stream(),
        Stream.of(EventType.values()).flatMap(t -> Stream.of(Samples.of(t), Samples.newest(t)))).toList());
  }

  @Provide
  Arbitrary<Integer> positions() {
    return Arbitraries.integers().between(0, 100_000);
  }

  @Provide
  Arbitrary<Byte> bytes() {
    return Arbitraries.oneOf(Arbitraries.bytes(),
        Arbitraries.of("\"\\,:{}[]09-+.eEnulltrfas \u007f".chars().mapToObj(c -> (byte) c).toList()),
        Arbitraries.of((byte) 0x80, (byte) 0xc3, (byte) 0xff, (byte) 0));
  }

  @Provide
  Arbitrary<Integer> edits() {
    return Arbitraries.integers().between(0, 2);
  }
}
