package io.kvfleet.events.codec;

import static io.kvfleet.events.codec.CloudEvents.DATA;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.ValueInstantiationException;
import io.kvfleet.events.EventType;
import io.kvfleet.events.FleetEvent;
import io.kvfleet.events.OpaqueEvent;
import java.util.Optional;

/** Reads the {@code data} of a document into the record its wire type names, or keeps it opaque. */
final class EventData {
  private final ObjectMapper mapper;

  EventData(ObjectMapper mapper) {
    this.mapper = mapper;
  }

  FleetEvent read(String wireType, int version, String subject, JsonNode data) {
    if (data == null || data.isNull()) {
      throw Malformation.missing(DATA);
    }
    Optional<EventType> known = EventType.byWireName(wireType);
    if (known.isEmpty() || version > known.get().schemaVersion()) {
      return opaque(wireType, version, subject, data);
    }
    if (!data.isObject()) {
      throw Malformation.invalid(DATA, "must be a JSON object for " + wireType);
    }
    try {
      return mapper.treeToValue(OlderVersions.upgrade(known.get(), version, data), known.get().javaType());
    } catch (JacksonException | IllegalArgumentException e) {
      throw new Malformation("invalid data for " + wireType + ": " + reasonOf(e));
    }
  }

  private OpaqueEvent opaque(String wireType, int version, String subject, JsonNode data) {
    String nodeId = textField(data, "nodeId").or(() -> textField(data, "sourceNode")).orElse("");
    return new OpaqueEvent(nodeId, subject, wireType, version, data.toString());
  }

  private static Optional<String> textField(JsonNode data, String field) {
    JsonNode node = data.get(field);
    return node != null && node.isTextual() ? Optional.of(node.textValue()) : Optional.empty();
  }

  /** The record's own validation message, or Jackson's, prefixed with where in {@code data}. */
  private static String reasonOf(Exception e) {
    String message =
        e instanceof ValueInstantiationException && e.getCause() != null
            ? e.getCause().getMessage()
            : e instanceof JacksonException j ? j.getOriginalMessage() : e.getMessage();
    String where = e instanceof JsonMappingException m ? path(m) : "";
    if (e instanceof MismatchedInputException && message != null && message.startsWith("Missing creator property")) {
      return "missing field '" + where + "'";
    }
    return (where.isEmpty() ? "" : where + ": ") + firstLine(message);
  }

  private static String path(JsonMappingException e) {
    var path = new StringBuilder();
    for (JsonMappingException.Reference ref : e.getPath()) {
      if (ref.getFieldName() != null) {
        path.append(path.isEmpty() ? "" : ".").append(ref.getFieldName());
      } else if (ref.getIndex() >= 0) {
        path.append('[').append(ref.getIndex()).append(']');
      }
    }
    return path.toString();
  }

  static String firstLine(String message) {
    if (message == null) {
      return "no detail";
    }
    int end = message.indexOf('\n');
    return end < 0 ? message : message.substring(0, end);
  }
}
