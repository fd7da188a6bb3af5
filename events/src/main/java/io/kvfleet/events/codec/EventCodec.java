package io.kvfleet.events.codec;

import static io.kvfleet.events.codec.CloudEvents.*;
import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.util.RawValue;
import io.kvfleet.events.Envelope;
import io.kvfleet.events.EventType;
import io.kvfleet.events.FleetEvent;
import io.kvfleet.events.OpaqueEvent;
import java.io.UncheckedIOException;

/**
 * Encodes an {@link Envelope} as one CloudEvents 1.0 structured-mode JSON document and reads it
 * back. The {@code type} is the event's wire name ({@link io.kvfleet.events.EventType}), never a
 * Java class name. Thread-safe: it holds only an immutable Jackson configuration.
 */
public final class EventCodec {
  private final ObjectMapper mapper = Json.mapper();
  private final CloudEventReader reader = new CloudEventReader(mapper);

  /** The envelope as a UTF-8 JSON document. */
  public byte[] encode(Envelope envelope) {
    requireNonNull(envelope, "envelope must not be null");
    try {
      return mapper.writeValueAsBytes(toJson(envelope));
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException("cannot encode event " + envelope.id(), e);
    }
  }

  /** Reads one document; never throws, never returns null. */
  public Decoded decode(byte[] raw) {
    if (raw == null || raw.length == 0) {
      return new Decoded.Malformed("empty record", new byte[0]);
    }
    try {
      return new Decoded.Event(reader.read(raw), raw);
    } catch (Malformation m) {
      return new Decoded.Malformed(m.getMessage(), raw);
    } catch (RuntimeException e) {
      // Every known malformation is named above; this keeps "never throws" should a parser surprise us,
      // since replays, exports and 'tail' call this directly, without the deserializer's guard.
      return new Decoded.Malformed("unreadable: " + e, raw);
    }
  }

  private ObjectNode toJson(Envelope envelope) {
    ObjectNode node = mapper.createObjectNode();
    node.put(SPECVERSION, SPEC_VERSION);
    node.put(ID, envelope.id());
    node.put(SOURCE, envelope.source());
    node.put(TYPE, envelope.type());
    putIfNotEmpty(node, SUBJECT, envelope.subject());
    node.put(TIME, envelope.time().toString());
    node.put(DATACONTENTTYPE, DATA_CONTENT_TYPE);
    node.put(PRODUCER, envelope.producer());
    // CloudEvents integers are 32-bit: 64-bit values travel as decimal strings.
    node.put(EPOCH, Long.toString(envelope.epoch()));
    node.put(SEQUENCE, Long.toString(envelope.sequence()));
    node.put(SCHEMAVERSION, envelope.data().schemaVersion());
    putIfNotEmpty(node, CORRELATIONID, envelope.correlationId());
    putData(node, envelope.data());
    return node;
  }

  private void putData(ObjectNode node, FleetEvent event) {
    if (event instanceof OpaqueEvent opaque) {
      // Written back exactly as it was read: this build does not know its shape.
      node.putRawValue(DATA, new RawValue(opaque.rawData()));
    } else {
      node.set(DATA, OlderVersions.downgrade(EventType.of(event), event.schemaVersion(), mapper.valueToTree(event)));
    }
  }

  // CloudEvents: an optional attribute, when present, must not be empty.
  private static void putIfNotEmpty(ObjectNode node, String attribute, String value) {
    if (!value.isEmpty()) {
      node.put(attribute, value);
    }
  }
}
