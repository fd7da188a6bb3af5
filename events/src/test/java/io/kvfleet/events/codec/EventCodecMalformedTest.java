package io.kvfleet.events.codec;

import static io.kvfleet.events.codec.Documents.CODEC;
import static io.kvfleet.events.codec.Documents.data;
import static io.kvfleet.events.codec.Documents.edited;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kvfleet.events.Envelope;
import io.kvfleet.events.EventType;
import io.kvfleet.events.Samples;
import java.nio.charset.StandardCharsets;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

class EventCodecMalformedTest {
  private static final Envelope JOINED = Samples.envelope(Samples.of(EventType.PEER_JOINED));
  private static final Envelope REQUESTED = Samples.envelope(Samples.of(EventType.TRANSFER_REQUESTED));
  private static final Envelope REGISTERED = Samples.envelope(Samples.of(EventType.REGION_REGISTERED));

  @ParameterizedTest
  @ValueSource(
      strings = {
        "specversion", "id", "source", "type", "time", "producer", "epoch", "sequence",
        "schemaversion", "data"
      })
  void namesAMissingRequiredAttribute(String attribute) {
    assertReason(edited(JOINED, doc -> doc.remove(attribute)), "missing attribute '" + attribute + "'");
  }

  static Stream<Arguments> brokenDocuments() {
    return Stream.of(
        broken(
            JOINED,
            doc -> doc.put("specversion", "0.3"),
            "attribute 'specversion' is '0.3', only '1.0' is read"),
        broken(
            JOINED,
            doc -> doc.put("id", ""),
            "attribute 'id' must not be empty"),
        broken(
            JOINED,
            doc -> doc.put("type", 7),
            "attribute 'type' must be a string"),
        broken(
            JOINED,
            doc -> doc.put("time", "yesterday"),
            "attribute 'time' is not an RFC 3339 timestamp: 'yesterday'"),
        broken(
            JOINED,
            doc -> doc.put("time", "+300000000-01-01T00:00:00Z"),
            "attribute 'time' is not an RFC 3339 timestamp: '+300000000-01-01T00:00:00Z'"),
        broken(
            JOINED,
            doc -> doc.put("epoch", "three"),
            "attribute 'epoch' must be a 64-bit integer: \"three\""),
        broken(
            JOINED,
            doc -> doc.put("epoch", 3.5),
            "attribute 'epoch' must be a 64-bit integer: 3.5"),
        broken(
            JOINED,
            doc -> doc.put("schemaversion", 0),
            "attribute 'schemaversion' must be a positive 32-bit integer: 0"),
        broken(
            JOINED,
            doc -> doc.put("sequence", "0"),
            "invalid envelope: sequence starts at 1: 0"),
        broken(
            JOINED,
            doc -> doc.put("datacontenttype", "text/xml"),
            "attribute 'datacontenttype' is 'text/xml', only application/json is read"),
        broken(
            JOINED,
            doc -> doc.put("data", "prefill-0"),
            "attribute 'data' must be a JSON object for io.kvfleet.peer.joined"),
        broken(
            JOINED,
            doc -> data(doc).put("epoch", 0),
            "invalid data for io.kvfleet.peer.joined: epoch must be positive: 0"),
        broken(
            JOINED,
            doc -> data(doc).putNull("host"),
            "invalid data for io.kvfleet.peer.joined: host must not be null"),
        broken(
            JOINED,
            doc -> data(doc).remove("host"),
            "invalid data for io.kvfleet.peer.joined: missing field 'host'"),
        broken(
            JOINED,
            doc -> data(doc).put("epoch", "3"),
            "invalid data for io.kvfleet.peer.joined: epoch: "),
        broken(
            REQUESTED,
            doc -> ((ObjectNode) data(doc).withArray("ranges").get(0)).put("length", 0),
            "invalid data for io.kvfleet.transfer.requested: ranges[0]: length must be positive: 0"),
        broken(
            REQUESTED,
            doc -> {
              var ranges = data(doc).withArray("ranges");
              ((ObjectNode) ranges.get(0)).put("length", Long.MAX_VALUE / 2 + 1);
              ranges.add(ranges.get(0).deepCopy());
            },
            "invalid data for io.kvfleet.transfer.requested: its ranges add up to more than 9223372036854775807 bytes"),
        // Every answer repeats the ids of what it answers: an id near a record's size made a request no answer
        // could follow, and a transfer that never ended.
        broken(
            REQUESTED,
            doc -> data(doc).put("transferId", "t".repeat(1_025)),
            "invalid data for io.kvfleet.transfer.requested: transferId is 1025 characters long; an id has at most"
                + " 1024"),
        broken(
            JOINED,
            doc -> data(doc).put("nodeId", "n".repeat(500_000)),
            "invalid data for io.kvfleet.peer.joined: nodeId is 500000 characters long; an id has at most 1024"),
        broken(
            REGISTERED,
            doc -> data(doc).withObject("region").put("regionId", "r".repeat(2_000)),
            "invalid data for io.kvfleet.region.registered: region: regionId is 2000 characters long; an id has at most"
                + " 1024"),
        broken(
            REGISTERED,
            doc -> data(doc).withObject("region").remove("kind"),
            "invalid data for io.kvfleet.region.registered: missing field 'region.kind'"),
        broken(
            REGISTERED,
            doc -> data(doc).withObject("region").put("memoryType", "HBM"),
            "invalid data for io.kvfleet.region.registered: region.memoryType: "));
  }

  @ParameterizedTest
  @MethodSource("brokenDocuments")
  void saysWhatIsWrongWithABrokenDocument(byte[] bytes, String reason) {
    assertReason(bytes, reason);
  }

  @Test
  void saysWhenARecordIsNotJson() {
    assertReason("{\"specversion\": ".getBytes(StandardCharsets.UTF_8), "not JSON: ");
    assertReason(new byte[] {(byte) 0xff, (byte) 0xfe, 0}, "not JSON: ");
    assertReason("  ".getBytes(StandardCharsets.UTF_8), "not JSON: no content");
  }

  @Test
  void saysWhenARecordIsJsonButNotAnObject() {
    assertReason("[1, 2]".getBytes(StandardCharsets.UTF_8), "not a JSON object but array");
  }

  @Test
  void refusesDuplicateKeysAndTrailingDocuments() {
    assertReason("{\"id\":\"a\",\"id\":\"b\"}".getBytes(StandardCharsets.UTF_8), "not JSON: Duplicate field 'id'");
    byte[] twice = (new String(CODEC.encode(JOINED), StandardCharsets.UTF_8) + "{}").getBytes(StandardCharsets.UTF_8);
    assertReason(twice, "not JSON: ");
  }

  @Test
  void callsANumberNoDecimalHoldsOutOfRangeInsteadOfThrowing() {
    // Found by StreamingReaderTest's byte flips: one byte of a timed-out event's deadline turned to 'E'.
    String written = new String(CODEC.encode(Samples.envelope(Samples.of(EventType.TRANSFER_TIMED_OUT))),
        StandardCharsets.UTF_8);
    String deadline = "\"deadlineMillis\":";
    int at = written.indexOf(deadline) + deadline.length();
    String flipped = written.substring(0, at + 1) + "E" + written.substring(at + 2);

    assertReason(flipped.getBytes(StandardCharsets.UTF_8), "a number out of range: ");
    assertReason("{\"x\":1E48779230000}".getBytes(StandardCharsets.UTF_8), "a number out of range: ");
  }

  @Test
  void callsAnEmptyRecordEmpty() {
    assertReason(new byte[0], "empty record");
    assertReason(null, "empty record");
  }

  @Test
  void keepsTheBytesOfAMalformedRecord() {
    byte[] bytes = "not json".getBytes(StandardCharsets.UTF_8);

    Decoded.Malformed malformed = (Decoded.Malformed) CODEC.decode(bytes);

    assertThat(malformed.raw()).isEqualTo(bytes);
  }

  private static Arguments broken(Envelope envelope, Consumer<ObjectNode> edit, String reason) {
    return Arguments.of(edited(envelope, edit), reason);
  }

  private static void assertReason(byte[] bytes, String reason) {
    Decoded decoded = CODEC.decode(bytes);
    assertThat(decoded).isInstanceOf(Decoded.Malformed.class);
    assertThat(((Decoded.Malformed) decoded).reason()).startsWith(reason);
  }
}
