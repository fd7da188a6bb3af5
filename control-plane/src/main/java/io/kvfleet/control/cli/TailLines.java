package io.kvfleet.control.cli;

import io.kvfleet.control.console.EventLine;
import io.kvfleet.control.console.TailFilter;
import io.kvfleet.control.kafka.TransferPlacement;
import io.kvfleet.events.ReasonCodes;
import io.kvfleet.events.codec.Decoded;
import io.kvfleet.events.trust.Verdict;
import io.kvfleet.events.trust.Verifier;
import java.io.PrintStream;
import java.util.Optional;

/**
 * What {@code kvfleet tail} prints of each record, in log order: the events its filter shows, and every malformed
 * record, which no filter can place. With a verifier, an event a verifying coordinator would refuse is printed
 * marked {@code UNAUTHENTICATED} with the reason: its signature, its writer's rights, its place in the transfers
 * topic, and for a node's ending, whether the transfer was dispatched to that node, as far as tail has read its
 * request (the newest {@link TrustedTransfers#KEPT}). Tail folds nothing, so it shows what a replay would leave
 * out. One thread at a time calls it: the history's, then the follower's, which starts after the history is read.
 */
final class TailLines {
  static final TailLines EVERYTHING = new TailLines(new TailFilter(null, null, null), Verifier.off(), 0);

  private final TailFilter filter;
  private final int transferPartitions;
  private long shown;
  private final TrustedTransfers trusted;

  TailLines(TailFilter filter, Verifier verifier, int transferPartitions) {
    this.filter = filter;
    this.trusted = new TrustedTransfers(verifier);
    this.transferPartitions = transferPartitions;
  }

  /** Prints {@code value}, read at {@code offset} of {@code topic}'s {@code partition} under Kafka key {@code key}. */
  void print(String topic, int partition, long offset, String key, Decoded value, PrintStream out) {
    switch (value) {
      case Decoded.Event e -> {
        Optional<Verdict.Refused> refused = trusted.isOn() ? refusal(topic, partition, key, e) : Optional.empty();
        if (filter.shows(e.envelope(), refused.isEmpty())) {
          shown++;
          String line = EventLine.format(e.envelope());
          out.println(refused.map(r -> "UNAUTHENTICATED (" + r.reason() + ": " + r.detail() + ") " + line)
              .orElse(line));
        }
      }
      case Decoded.Malformed m -> out.printf("MALFORMED %s-%d@%d: %s%n", topic, partition, offset, m.reason());
    }
  }

  /** How many events it has printed. */
  long shown() {
    return shown;
  }

  /** The refusal a verifying coordinator would make of {@code e}, in its order; a trusted request or dispatch is kept. */
  private Optional<Verdict.Refused> refusal(String topic, int partition, String key, Decoded.Event e) {
    var misplaced = TransferPlacement.misplaced(topic, partition, key, e, transferPartitions);
    if (misplaced.isPresent()) {
      return Optional.of(new Verdict.Refused(ReasonCodes.EVENT_MISPLACED, misplaced.get()));
    }
    return trusted.refusal(e);
  }
}
