package io.kvfleet.events.state;

import io.kvfleet.events.PartOutcome;
import io.kvfleet.events.RequestPart;
import io.kvfleet.events.TransferCompleted;
import io.kvfleet.events.TransferRequested;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * What the completion of a request transfer must show: one outcome per requested component, and
 * total bytes that are the sum of the parts'. Anything else is a violation (the bytes a part
 * should move depend on the layouts at dispatch, which the coordinator checked).
 */
final class RequestCompletion {
  private RequestCompletion() {}

  static void check(TransferRequested request, TransferCompleted e, Applying at) {
    Set<String> requested = request.parts().stream().map(RequestPart::component).collect(Collectors.toSet());
    Set<String> reported = e.parts().stream().map(PartOutcome::component).collect(Collectors.toSet());
    if (!requested.equals(reported) || reported.size() != e.parts().size()) {
      at.violation("request transfer " + e.transferId() + " completed with parts "
          + e.parts().stream().map(PartOutcome::component).toList() + " but requested "
          + request.parts().stream().map(RequestPart::component).toList());
    }
    long sum = e.parts().stream().mapToLong(PartOutcome::bytes).sum();
    if (sum != e.bytes()) {
      at.violation("request transfer " + e.transferId() + " completed with " + e.bytes()
          + " bytes but its parts add up to " + sum);
    }
  }
}
