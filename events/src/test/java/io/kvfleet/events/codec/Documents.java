package io.kvfleet.events.codec;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kvfleet.events.Envelope;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.function.Consumer;

/** Encoded documents as JSON trees, to read and to tamper with in tests. */
final class Documents {
  private static final ObjectMapper MAPPER = new ObjectMapper();
  static final EventCodec CODEC = new EventCodec();

  private Documents() {}

  static ObjectNode json(Envelope envelope) {
    return parse(CODEC.encode(envelope));
  }

  static ObjectNode parse(byte[] bytes) {
    try {
      return (ObjectNode) MAPPER.readTree(bytes);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static byte[] bytes(JsonNode node) {
    try {
      return MAPPER.writeValueAsBytes(node);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The envelope's document changed by {@code edit}, as bytes. */
  static byte[] edited(Envelope envelope, Consumer<ObjectNode> edit) {
    ObjectNode node = json(envelope);
    edit.accept(node);
    return bytes(node);
  }

  static ObjectNode data(ObjectNode document) {
    return (ObjectNode) document.get("data");
  }
}
