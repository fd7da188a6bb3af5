package io.kvfleet.events.state;

import io.kvfleet.events.Envelope;
import io.kvfleet.events.FleetEvent;
import io.kvfleet.events.TransferCompleted;
import io.kvfleet.events.TransferDispatched;
import io.kvfleet.events.TransferFailed;
import io.kvfleet.events.TransferRejected;
import io.kvfleet.events.TransferRequested;
import io.kvfleet.events.TransferTimedOut;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import org.assertj.core.groups.Tuple;

/** The transfer rules written the plainest way, to check the fold against. */
final class TransferModel {
  private TransferModel() {}

  static String sequenceKey(Envelope e) {
    return e.producer() + "@" + e.epoch() + "#" + e.sequence();
  }

  /** (transfer id, status) of every requested transfer, by id. */
  static List<Tuple> expected(List<Envelope> history) {
    Map<String, TransferStatus> status = new TreeMap<>();
    Set<String> seen = new HashSet<>();
    for (Envelope envelope : history) {
      if (!seen.add(sequenceKey(envelope))) {
        continue; // a redelivery is not folded twice
      }
      FleetEvent event = envelope.data();
      if (event instanceof TransferRequested request) {
        status.putIfAbsent(request.transferId(), TransferStatus.REQUESTED);
      } else if (event instanceof TransferDispatched) {
        status.computeIfPresent(
            event.subject(), (id, s) -> s == TransferStatus.REQUESTED ? TransferStatus.DISPATCHED : s);
      } else {
        end(event).ifPresent(end -> status.computeIfPresent(event.subject(), (id, s) -> s.isTerminal() ? s : end));
      }
    }
    return status.entrySet().stream().map(e -> Tuple.tuple(e.getKey(), e.getValue())).toList();
  }

  private static Optional<TransferStatus> end(FleetEvent event) {
    if (event instanceof TransferCompleted) {
      return Optional.of(TransferStatus.COMPLETED);
    } else if (event instanceof TransferFailed) {
      return Optional.of(TransferStatus.FAILED);
    } else if (event instanceof TransferRejected) {
      return Optional.of(TransferStatus.REJECTED);
    } else if (event instanceof TransferTimedOut) {
      return Optional.of(TransferStatus.TIMED_OUT);
    }
    return Optional.empty();
  }
}
