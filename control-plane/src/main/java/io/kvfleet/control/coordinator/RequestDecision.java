package io.kvfleet.control.coordinator;

import io.kvfleet.control.protocol.TransferOrder;
import io.kvfleet.events.TransferRejected;
import io.kvfleet.events.TransferRequested;
import io.kvfleet.events.state.FleetState;
import io.kvfleet.events.state.TransferView;

/** The decision about a request transfer: its {@link RequestContract} check as dispatch, wait or rejection. */
final class RequestDecision {
  private RequestDecision() {}

  static Decision of(FleetState state, TransferRequested request, String coordinatorId) {
    return switch (RequestContract.check(state, request)) {
      case RequestContract.Result.Broken b when b.stateMayBeBehind() -> new Decision.Wait(rejected(request, b));
      case RequestContract.Result.Broken b -> new Decision.Reject(rejected(request, b));
      case RequestContract.Result.Expanded e -> {
        var first = e.parts().getFirst();
        var order = new TransferOrder(request, first.source(), first.destination(), first.destinationKeys(),
            state.peer(request.destinationNode()).orElseThrow().transportAddress(),
            state.transfer(request.transferId()).map(TransferView::requestEventId).orElse(""), e.parts());
        yield Decision.Dispatch.of(coordinatorId, order);
      }
    };
  }

  private static TransferRejected rejected(TransferRequested request, RequestContract.Result.Broken b) {
    return new TransferRejected(request.transferId(), request.sourceNode(), b.reason(), b.detail());
  }
}
