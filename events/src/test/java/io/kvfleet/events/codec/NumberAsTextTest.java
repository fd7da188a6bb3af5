package io.kvfleet.events.codec;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kvfleet.events.Envelope;
import io.kvfleet.events.EventType;
import io.kvfleet.events.Samples;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A JSON number where a string field belongs. Jackson's StringDeserializer takes the
 * number's text as written when it binds from the stream, but the tree's normalised form
 * (BigDecimal.toString, IntNode) when it binds from a tree: the two readers read different envelopes.
 */
class NumberAsTextTest {
  private final StreamingReader streaming = new StreamingReader(Json.mapper());
  private final CloudEventReader tree = new CloudEventReader(Json.mapper());

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "TRANSFER_REQUESTED  | false | transferId  | 1e2",
      "TRANSFER_REQUESTED  | false | transferId  | -0",
      "TRANSFER_REQUESTED  | false | sourceNode  | 1.50E1",
      "TRANSFER_COMPLETED  | false | path        | 1e2",
      "TRANSFER_DISPATCHED | false | transferId  | 1e2",
      "TRANSFER_REQUESTED  | true  | transferId  | 1e2",
      "TRANSFER_FAILED     | true  | transferId  | 1e2",
      "TRANSFER_REQUESTED  | false | op          | 0",
      "TRANSFER_REQUESTED  | false | op          | -0",
      "TRANSFER_REQUESTED  | false | op          | 1",
      "TRANSFER_REQUESTED  | false | op          | 1e0",
      "TRANSFER_REQUESTED  | false | op          | 0.0"})
  void streamsANumberInAStringFieldOnlyAsTheTreeReaderReadsIt(EventType type, boolean newest, String field,
      String number) {
    Envelope envelope = Samples.envelope(newest ? Samples.newest(type) : Samples.of(type));
    ObjectNode root = Documents.json(envelope);
    ((ObjectNode) root.get("data")).put(field, "@@");
    byte[] bytes = Documents.bytes(root);
    bytes = new String(bytes, StandardCharsets.UTF_8).replace("\"@@\"", number).getBytes(StandardCharsets.UTF_8);

    Optional<Envelope> streamed = streaming.read(bytes);

    if (streamed.isPresent()) {
      assertThat(streamed.get()).as(new String(bytes, StandardCharsets.UTF_8)).isEqualTo(tree.readTree(bytes));
    }
  }
}
