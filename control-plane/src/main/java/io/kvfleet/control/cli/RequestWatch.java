package io.kvfleet.control.cli;

import io.kvfleet.control.console.EventLine;
import io.kvfleet.control.kafka.DeadLetters;
import io.kvfleet.events.FleetEvent;
import io.kvfleet.events.Topics;
import io.kvfleet.events.TransferCompleted;
import io.kvfleet.events.TransferDispatched;
import io.kvfleet.events.TransferFailed;
import io.kvfleet.events.TransferRejected;
import io.kvfleet.events.TransferTimedOut;
import io.kvfleet.events.codec.Decoded;
import io.kvfleet.events.trust.Verifier;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;

/**
 * What {@code kvfleet request} makes of the records it reads back about its transfer: its ending, or a
 * coordinator's refusal of the request. Only what could be the fleet's answer counts: a record of its transfer
 * in the request's own partition after the request itself, where Kafka said it put it (one before it, or
 * elsewhere, was written by someone who saw the id coming), verified against the trust file when one is given;
 * a completion only after a dispatch of this very request (not an earlier one under the same id); and a
 * dead-letter copy only when its headers place it at the request's own offset, no coordinator answered within
 * {@link #REFUSAL_GRACE}, and, with a trust file, the request itself does not verify (whoever may write the
 * dead-letter topic could copy the request there). The tail's thread feeds it and the command's thread asks
 * it; both through this object's monitor.
 */
final class RequestWatch {
  /** How long a dead-letter copy waits for a coordinator's answer that would show it forged. */
  static final Duration REFUSAL_GRACE = Duration.ofSeconds(3);

  /** How the request ended, as far as this command can tell. */
  sealed interface Outcome {
    /** The fleet's ending of the transfer. */
    record Ended(FleetEvent ending) implements Outcome {}

    /** A coordinator refused the request unread: no answer will come. */
    record Refused(String reason) implements Outcome {}
  }

  private final String transferId;
  private final TrustedTransfers trusted;
  private final PrintStream out;
  /** Records about the transfer read before Kafka said where the request is, in the order read. */
  private final List<ConsumerRecord<String, Decoded>> waiting = new ArrayList<>();
  private String sentId;
  private int requestPartition = -1;
  private long requestOffset = -1;
  /** With a trust file: the request's own record verified, so no reader refuses it unread. */
  private boolean requestVerified;
  private boolean dispatched;
  private boolean answered;
  private FleetEvent ending;
  private String refusal;
  private long refusedAt;

  RequestWatch(String transferId, Verifier verifier, PrintStream out) {
    this.transferId = transferId;
    this.trusted = new TrustedTransfers(verifier);
    this.out = out;
  }

  /** Kafka put the request, envelope {@code envelopeId}, at {@code offset} of {@code partition} of the transfers. */
  synchronized void sent(String envelopeId, int partition, long offset, long now) {
    sentId = envelopeId;
    requestPartition = partition;
    requestOffset = offset;
    var pending = new ArrayList<>(waiting);
    waiting.clear();
    pending.forEach(r -> judge(r, now));
  }

  /** A record read from the transfers or the dead-letter topic at wall time {@code now}. */
  synchronized void read(ConsumerRecord<String, Decoded> r, long now) {
    if (r.value() instanceof Decoded.Event e && e.envelope().data().subject().equals(transferId)) {
      if (sentId == null) {
        waiting.add(r); // judged once Kafka says where the request is
      } else {
        judge(r, now);
      }
    }
  }

  /** What the watch knows now, at wall time {@code now}: empty while the fleet may still answer. */
  synchronized Optional<Outcome> outcome(long now) {
    if (ending != null) {
      return Optional.of(new Outcome.Ended(ending));
    }
    if (refusal != null && !answered && !requestVerified && now - refusedAt >= REFUSAL_GRACE.toMillis()) {
      return Optional.of(new Outcome.Refused(refusal));
    }
    return Optional.empty();
  }

  private void judge(ConsumerRecord<String, Decoded> r, long now) {
    var e = (Decoded.Event) r.value();
    if (r.topic().equals(Topics.DEADLETTER)) {
      if (placedAtTheRequest(r) && refusal == null) {
        refusal = text(r.headers().lastHeader(DeadLetters.REASON));
        refusedAt = now;
      }
    } else if (r.partition() == requestPartition && r.offset() == requestOffset) {
      requestVerified = trusted.isOn() && trusted.refusal(e).isEmpty();
      out.println(EventLine.format(e.envelope()));
    } else if (r.partition() != requestPartition || r.offset() < requestOffset) {
      out.println("IGNORED (not after the request in its partition: not the fleet's answer) "
          + EventLine.format(e.envelope()));
    } else {
      answer(e);
    }
  }

  private void answer(Decoded.Event e) {
    var refused = trusted.refusal(e);
    FleetEvent event = e.envelope().data();
    String notThis = event instanceof TransferDispatched d && !ofThisRequest(d) ? "a dispatch of another request"
        : event instanceof TransferCompleted && !dispatched ? "a completion before any dispatch of this request" : "";
    if (refused.isPresent() || !notThis.isEmpty()) {
      out.println("IGNORED (" + refused.map(r -> r.reason() + ": " + r.detail()).orElse(notThis) + ") "
          + EventLine.format(e.envelope()));
      return;
    }
    out.println(EventLine.format(e.envelope()));
    if (event instanceof TransferDispatched) {
      dispatched = true;
    }
    if (event instanceof TransferDispatched || event instanceof TransferRejected) {
      answered = true;
    }
    if (ending == null && (event instanceof TransferCompleted || event instanceof TransferFailed
        || event instanceof TransferRejected || event instanceof TransferTimedOut)) {
      ending = event;
    }
  }

  private boolean ofThisRequest(TransferDispatched d) {
    return d.order() != null && d.order().requestEventId().equals(sentId);
  }

  private boolean placedAtTheRequest(ConsumerRecord<String, Decoded> r) {
    return Topics.TRANSFERS.equals(text(r.headers().lastHeader(DeadLetters.TOPIC)))
        && Integer.toString(requestPartition).equals(text(r.headers().lastHeader(DeadLetters.PARTITION)))
        && Long.toString(requestOffset).equals(text(r.headers().lastHeader(DeadLetters.OFFSET)));
  }

  private static String text(Header header) {
    return header == null || header.value() == null ? "(no reason given)"
        : new String(header.value(), StandardCharsets.UTF_8);
  }
}
