package io.kvfleet.events.codec;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.util.TokenBuffer;
import io.kvfleet.events.EventType;
import java.io.IOException;
import java.util.List;

/**
 * Reads an older schema version of a type as the current record: the fields a later version added
 * take the value that means "as the older version did" when the document leaves them out.
 */
final class OlderVersions {
  private OlderVersions() {}

  /** {@code data} with the fields versions after {@code version} added, defaulted where absent. */
  static JsonNode upgrade(EventType type, int version, JsonNode data) {
    if (version >= type.schemaVersion() || !(data instanceof ObjectNode object)) {
      return data;
    }
    ObjectNode copy = object.deepCopy();
    for (String field : addedAfterVersion1(type)) {
      copy.putIfAbsent(field, defaultOf(field));
    }
    return copy;
  }

  /**
   * The object {@code p} is at the start of, as a parser of the same tokens with the fields versions
   * after 1 added where absent, valued as {@link #upgrade} values them. The tokens are copied as they
   * are read, so {@code p}'s own checks (duplicate keys) still apply to the document.
   */
  static JsonParser upgrading(EventType type, JsonParser p) throws IOException {
    List<String> added = addedAfterVersion1(type);
    var buffer = new TokenBuffer(p);
    buffer.writeStartObject();
    long present = 0;
    while (p.nextToken() == JsonToken.FIELD_NAME) {
      String name = p.currentName();
      int i = added.indexOf(name);
      present |= i < 0 ? 0 : 1L << i;
      buffer.writeFieldName(name);
      p.nextToken();
      buffer.copyCurrentStructure(p);
    }
    for (int i = 0; i < added.size(); i++) {
      if ((present & 1L << i) == 0) {
        buffer.writeFieldName(added.get(i));
        buffer.writeTree(defaultOf(added.get(i)));
      }
    }
    buffer.writeEndObject();
    JsonParser upgraded = buffer.asParser();
    upgraded.nextToken();
    return upgraded;
  }

  /** What a field a later version added means when an older document leaves it out: "as before". */
  private static JsonNode defaultOf(String field) {
    var nodes = JsonNodeFactory.instance;
    return switch (field) {
      case "requestId", "orderKeyId", "orderSignature" -> nodes.textNode("");
      case "sourceEpoch" -> nodes.numberNode(0L);
      case "order" -> nodes.nullNode();
      default -> nodes.arrayNode();
    };
  }

  /**
   * {@code data} of an event that writes an older {@code version} (its data fits it) without the
   * fields later versions added, so the document is exactly that version's.
   */
  static JsonNode downgrade(EventType type, int version, JsonNode data) {
    if (version >= type.schemaVersion() || !(data instanceof ObjectNode object)) {
      return data;
    }
    object.remove(addedAfterVersion1(type));
    return object;
  }

  /** The fields version 2 of a type added; none for a type still at version 1. */
  private static List<String> addedAfterVersion1(EventType type) {
    return switch (type) {
      case TRANSFER_REQUESTED -> List.of("requestId", "parts", "recomputed");
      case TRANSFER_COMPLETED -> List.of("parts");
      case TRANSFER_DISPATCHED -> List.of("sourceEpoch", "order", "orderKeyId", "orderSignature");
      default -> List.of();
    };
  }
}
