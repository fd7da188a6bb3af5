package io.kvfleet.events;

import static java.util.Objects.requireNonNull;

/**
 * The coordinator {@code coordinatorId} validated a request and dispatched it to the source node's
 * agent at {@code sourceEpoch}; the agent takes its orders from these records (schema version 2).
 *
 * @param sourceEpoch the source node's epoch the transfer was dispatched to; 0 in version 1
 * @param order the whole order the agent runs; null in version 1, which carried none
 * @param orderKeyId the id of the coordinator key that signed the order; empty when unsigned
 * @param orderSignature base64 Ed25519 signature over the order's canonical form; empty when unsigned
 */
public record TransferDispatched(
    String transferId, String sourceNode, String coordinatorId, long sourceEpoch, DispatchedOrder order,
    String orderKeyId, String orderSignature)
    implements FleetEvent {
  public TransferDispatched {
    Checks.id("transferId", transferId);
    Checks.id("sourceNode", sourceNode);
    requireNonNull(coordinatorId, "coordinatorId must not be null");
    Checks.notNegative("sourceEpoch", sourceEpoch);
    requireNonNull(orderKeyId, "orderKeyId must not be null (use \"\")");
    requireNonNull(orderSignature, "orderSignature must not be null (use \"\")");
  }

  /** A dispatch without an order, as version 1 wrote it. */
  public TransferDispatched(String transferId, String sourceNode, String coordinatorId) {
    this(transferId, sourceNode, coordinatorId, 0, null, "", "");
  }

  /** This dispatch with {@code keyId}'s {@code signature} over its order. */
  public TransferDispatched signed(String keyId, String signature) {
    return new TransferDispatched(transferId, sourceNode, coordinatorId, sourceEpoch, order, keyId, signature);
  }

  @Override
  public String nodeId() {
    return sourceNode;
  }

  @Override
  public String subject() {
    return transferId;
  }
}
