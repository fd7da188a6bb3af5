package io.kvfleet.control.coordinator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.kvfleet.events.EventType;
import io.kvfleet.events.OpaqueEvent;
import io.kvfleet.events.ReasonCodes;
import io.kvfleet.events.TransferRejected;
import io.kvfleet.events.codec.Decoded;
import io.kvfleet.events.trust.Verdict;
import io.kvfleet.events.trust.Verifier;
import java.io.IOException;
import java.util.Optional;

/**
 * A transfer request this build cannot read whose transfer id and source node still are: a newer
 * schema version ({@code SCHEMA_UNSUPPORTED}), or data a known version refuses, such as a
 * zero-length range ({@code INVALID_REQUEST}). It is answered with a rejection, so even it has one
 * ending. Pure.
 */
final class UnreadableRequest {
  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final String REQUESTED = EventType.TRANSFER_REQUESTED.wireName();

  private UnreadableRequest() {}

  /**
   * The verdict on a record that does not decode ({@code m}): with a trust file, only one whose exact bytes a
   * key signed whose role may write what it says it is (a router's {@code transfer.requested}) is its writer's
   * word; anything else is refused and must not be answered (the answer would be the coordinator's word for
   * the forger's). Always trusted without a trust file.
   */
  static Verdict verdict(Verifier verifier, Decoded.Malformed m) {
    if (!verifier.isOn()) {
      return verifier.checkUndecoded(m.raw(), "", "");
    }
    var root = parse(new String(m.raw(), java.nio.charset.StandardCharsets.UTF_8));
    return verifier.checkUndecoded(m.raw(), root.map(r -> r.path("type").asText("")).orElse(""),
        root.map(r -> r.path("producer").asText("")).orElse(""));
  }

  /**
   * The rejection that answers {@code decoded}, if it is a transfer request whose id is readable and, for one that
   * does not decode, {@code verifier} trusts its bytes ({@link #verdict}).
   */
  static Optional<TransferRejected> answer(Decoded decoded, Verifier verifier) {
    if (io.kvfleet.events.codec.TypeHeader.mismatched(decoded)) {
      // Its document may be a router's genuine signed request under a header someone else wrote on a copy:
      // dead-lettered, never answered, so a header can never end a transfer.
      return Optional.empty();
    }
    if (decoded instanceof Decoded.Malformed m && verifier.isOn() && !(verdict(verifier, m) instanceof Verdict.Trusted)) {
      return Optional.empty();
    }
    return answer(decoded);
  }

  /** The rejection that answers {@code decoded}, if it is a transfer request whose id is readable. */
  static Optional<TransferRejected> answer(Decoded decoded) {
    return switch (decoded) {
      case Decoded.Event e when e.envelope().data() instanceof OpaqueEvent o && o.wireType().equals(REQUESTED) ->
          parse(o.rawData()).flatMap(data -> rejection(data, ReasonCodes.SCHEMA_UNSUPPORTED, "schema version "
              + o.schemaVersion() + " of " + REQUESTED + " is newer than this build reads ("
              + EventType.TRANSFER_REQUESTED.schemaVersion() + ")"));
      case Decoded.Event e -> Optional.empty();
      case Decoded.Malformed m -> parse(new String(m.raw(), java.nio.charset.StandardCharsets.UTF_8))
          .filter(root -> REQUESTED.equals(root.path("type").asText()))
          .flatMap(root -> rejection(root.path("data"), ReasonCodes.INVALID_REQUEST, m.reason()));
    };
  }

  private static Optional<TransferRejected> rejection(JsonNode data, String reason, String detail) {
    JsonNode id = data.path("transferId");
    JsonNode source = data.path("sourceNode");
    if (!id.isTextual() || id.textValue().isEmpty() || !source.isTextual()) {
      return Optional.empty();
    }
    try {
      return Optional.of(new TransferRejected(id.textValue(), source.textValue(), reason, detail));
    } catch (IllegalArgumentException noAnswerCanSayIt) { // an id no event may carry: it stays poison, unanswered
      return Optional.empty();
    }
  }

  private static Optional<JsonNode> parse(String json) {
    try {
      JsonNode node = MAPPER.readTree(json);
      return node == null || !node.isObject() ? Optional.empty() : Optional.of(node);
    } catch (IOException | RuntimeException e) {
      return Optional.empty();
    }
  }
}
