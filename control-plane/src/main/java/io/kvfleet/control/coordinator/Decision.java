package io.kvfleet.control.coordinator;

import io.kvfleet.control.protocol.TransferOrder;
import io.kvfleet.events.TransferDispatched;
import io.kvfleet.events.TransferRejected;

/**
 * What the coordinator decided about one transfer request: an {@link Action} to take now, or to
 * {@link Wait}. Only {@link Decisions} sees a {@code Wait} (it keeps the request waiting); what it
 * hands the coordinator is an {@code Action}, so the coordinator has no case it must not get.
 */
sealed interface Decision {
  /** A decision the coordinator acts on now. */
  sealed interface Action extends Decision {}

  /**
   * Refuse it: publish the rejection, to transfer partition {@code partition} (where the request
   * was) or, when negative, where its key puts it.
   */
  record Reject(TransferRejected event, int partition) implements Action {
    Reject(TransferRejected event) {
      this(event, -1);
    }
  }

  /** Run it: publish the dispatch, which carries the order the source node's agent takes from the log. */
  record Dispatch(TransferDispatched event, TransferOrder order) implements Action {
    /** The dispatch of {@code order} by {@code coordinatorId}, to the source node's epoch the request names. */
    static Dispatch of(String coordinatorId, TransferOrder order) {
      var request = order.request();
      return new Dispatch(new TransferDispatched(request.transferId(), request.sourceNode(), coordinatorId,
          request.sourceEpoch(), order.dispatched(), "", ""), order);
    }
  }

  /**
   * The request names a node, epoch or region the state does not know yet. Node events and
   * transfer requests come on different topics, so the state may just be behind: decide again as
   * node events arrive, and reject with {@code ifStill} when the grace runs out.
   */
  record Wait(TransferRejected ifStill) implements Decision {}

  /** Nothing to do: the request was already answered (a duplicate id). */
  record AlreadyAnswered(String transferId) implements Action {}
}
