package io.kvfleet.events.codec;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kvfleet.events.EventType;
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
      copy.putIfAbsent(field, switch (field) {
        case "requestId", "orderKeyId", "orderSignature" -> copy.textNode("");
        case "sourceEpoch" -> copy.numberNode(0L);
        case "order" -> copy.nullNode();
        default -> copy.arrayNode();
      });
    }
    return copy;
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
  static List<String> addedAfterVersion1(EventType type) {
    return switch (type) {
      case TRANSFER_REQUESTED -> List.of("requestId", "parts", "recomputed");
      case TRANSFER_COMPLETED -> List.of("parts");
      case TRANSFER_DISPATCHED -> List.of("sourceEpoch", "order", "orderKeyId", "orderSignature");
      default -> List.of();
    };
  }
}
