package io.kvfleet.control.agent;

import io.kvfleet.control.protocol.OrderSignature;
import io.kvfleet.events.ReasonCodes;
import io.kvfleet.events.TransferDispatched;
import io.kvfleet.events.trust.KeyCheck;
import io.kvfleet.events.trust.Role;
import io.kvfleet.events.trust.TrustFile;
import java.util.Optional;

/**
 * Whether an agent runs a dispatch it read from its partition of the log: it must carry an order
 * for this node at the agent's current epoch, consistent with itself, and, where the agent has a
 * trust file, be signed by a key the file binds to the coordinator the dispatch names. A refusal is
 * reported, never an ending: whoever wrote the record may not be the one with the right to end the
 * transfer it names.
 */
final class OrderCheck {
  private OrderCheck() {}

  /** Why it was refused, with the reason code. */
  record Refusal(String reason, String detail) {}

  /** Why the agent of {@code nodeId} at {@code epoch} does not run {@code d}; empty when it does. */
  static Optional<Refusal> refusal(TransferDispatched d, String nodeId, long epoch, Optional<TrustFile> trust) {
    var order = d.order();
    if (order == null) {
      return refuse(ReasonCodes.ORDER_MALFORMED, "the dispatch of " + d.transferId() + " carries no order"
          + " (a version 1 dispatch)");
    }
    var request = order.request();
    if (!request.transferId().equals(d.transferId()) || !request.sourceNode().equals(nodeId)
        || !d.sourceNode().equals(nodeId) || request.sourceEpoch() != d.sourceEpoch()) {
      return refuse(ReasonCodes.ORDER_MALFORMED, "the dispatch of " + d.transferId() + " to " + d.sourceNode()
          + " epoch " + d.sourceEpoch() + " carries an order for " + request.transferId() + " from "
          + request.sourceNode() + " epoch " + request.sourceEpoch());
    }
    if (d.sourceEpoch() != epoch) {
      return refuse(ReasonCodes.ORDER_WRONG_EPOCH, d.transferId() + " was dispatched to " + nodeId + " epoch "
          + d.sourceEpoch() + ", not to this incarnation (" + epoch + ")");
    }
    return trust.isEmpty() ? Optional.empty() : signature(d, trust.get());
  }

  private static Optional<Refusal> signature(TransferDispatched d, TrustFile trust) {
    if (d.orderKeyId().isEmpty()) {
      return refuse(ReasonCodes.ORDER_UNSIGNED, "the order of " + d.transferId() + " from " + d.coordinatorId()
          + " is not signed, and this agent verifies against a trust file");
    }
    return switch (OrderSignature.check(d, trust)) {
      case KeyCheck.Verified v when v.binding().role() == Role.COORDINATOR
          && v.binding().mayProduceAs(d.coordinatorId()) -> Optional.empty();
      case KeyCheck.Verified v -> refuse(ReasonCodes.ORDER_KEY_UNKNOWN, "the order of " + d.transferId()
          + " is signed with key '" + v.binding().id() + "' (" + v.binding().role().wireName()
          + "), which the trust file does not bind to coordinator " + d.coordinatorId());
      case KeyCheck.UnknownKey u -> refuse(ReasonCodes.ORDER_KEY_UNKNOWN, "the order of " + d.transferId()
          + " is signed with key '" + u.keyId() + "', which the trust file does not list");
      case KeyCheck.BadSignature b -> refuse(ReasonCodes.ORDER_SIGNATURE_INVALID, "the order of " + d.transferId()
          + " does not check against key '" + b.keyId() + "'");
    };
  }

  private static Optional<Refusal> refuse(String reason, String detail) {
    return Optional.of(new Refusal(reason, detail));
  }
}
