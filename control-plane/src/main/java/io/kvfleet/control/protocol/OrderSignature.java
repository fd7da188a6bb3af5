package io.kvfleet.control.protocol;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kvfleet.events.TransferDispatched;
import io.kvfleet.events.trust.FleetKey;
import io.kvfleet.events.trust.KeyCheck;
import io.kvfleet.events.trust.TrustFile;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The coordinator's Ed25519 signature over a dispatched order: its canonical form (documented in
 * {@code events/README.md}) covers the transfer id, the source node and epoch, the dispatching
 * coordinator, the request and its record's id, both regions, every part and the destination.
 */
public final class OrderSignature {
  /** Tells an order signature apart from any other signature made with the same key. */
  static final String DOMAIN = "kvfleet-order-v1";
  private static final ObjectMapper MAPPER = JsonMapper.builder().build();

  private OrderSignature() {}

  /** {@code dispatch} signed with the coordinator's {@code key}. */
  public static TransferDispatched sign(TransferDispatched dispatch, FleetKey key) {
    return dispatch.signed(key.keyId(), Base64.getEncoder().encodeToString(key.sign(canonical(dispatch))));
  }

  /** What {@code trust} says of {@code dispatch}'s order signature: whose it is, an unknown key, or a bad one. */
  public static KeyCheck check(TransferDispatched dispatch, TrustFile trust) {
    byte[] signature;
    try {
      signature = Base64.getDecoder().decode(dispatch.orderSignature());
    } catch (IllegalArgumentException notBase64) {
      return new KeyCheck.BadSignature(dispatch.orderKeyId());
    }
    return trust.check(dispatch.orderKeyId(), canonical(dispatch), signature);
  }

  /** The bytes an order signature covers: sorted-key, whitespace-free UTF-8 JSON. */
  static byte[] canonical(TransferDispatched d) {
    Map<String, Object> signed = new LinkedHashMap<>();
    signed.put("coordinatorId", d.coordinatorId());
    signed.put("domain", DOMAIN);
    signed.put("order", d.order());
    signed.put("sourceEpoch", d.sourceEpoch());
    signed.put("sourceNode", d.sourceNode());
    signed.put("transferId", d.transferId());
    return sorted(MAPPER.valueToTree(signed)).toString().getBytes(StandardCharsets.UTF_8);
  }

  private static JsonNode sorted(JsonNode node) {
    if (node instanceof ObjectNode object) {
      List<String> names = new ArrayList<>();
      object.fieldNames().forEachRemaining(names::add);
      names.sort(null);
      ObjectNode copy = MAPPER.createObjectNode();
      names.forEach(name -> copy.set(name, sorted(object.get(name))));
      return copy;
    }
    if (node.isArray()) {
      var copy = MAPPER.createArrayNode();
      node.forEach(element -> copy.add(sorted(element)));
      return copy;
    }
    return node;
  }
}
