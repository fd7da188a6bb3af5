package io.kvfleet.control.bench;

import io.kvfleet.control.KvfleetException;
import io.kvfleet.events.FleetEvent;
import io.kvfleet.events.ModelLayoutDeclared;
import io.kvfleet.events.OpaqueEvent;
import io.kvfleet.events.PeerHeartbeat;
import io.kvfleet.events.PeerJoined;
import io.kvfleet.events.PeerLeft;
import io.kvfleet.events.PeerLost;
import io.kvfleet.events.RegionDeregistered;
import io.kvfleet.events.RegionRegistered;
import io.kvfleet.events.RegionSkipped;
import io.kvfleet.events.RegistrationDecision;
import io.kvfleet.events.RegistrationFailed;
import io.kvfleet.events.Topics;
import io.kvfleet.events.TransferCompleted;
import io.kvfleet.events.TransferDispatched;
import io.kvfleet.events.TransferFailed;
import io.kvfleet.events.TransferRejected;
import io.kvfleet.events.TransferRequested;
import io.kvfleet.events.TransferTimedOut;
import io.kvfleet.events.codec.Decoded;
import io.kvfleet.events.EventType;
import io.kvfleet.events.codec.EnvelopeDeserializer;
import io.kvfleet.events.codec.TypeHeader;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.serialization.Deserializer;
import java.time.Duration;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.LongConsumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * Reads {@code kvfleet.transfers} as a router watching outcomes would, decoding the terminal records
 * (the others it skips by their type header, unread), and
 * answers a bench request when its transfer's terminal event (completed, failed, rejected, timed
 * out) is read. Transfer ids are {@code <prefix><n>}; negative {@code n} are readiness probes.
 * It also notes the size of the first dispatch it reads, for the raw three-hop reference.
 */
final class TerminalReader implements AutoCloseable {
  private final String prefix;
  private final Target.Answers answers;
  private final LinkedBlockingQueue<Boolean> probes = new LinkedBlockingQueue<>();
  private TopicReader<Decoded> reader;
  /** Bytes of the first dispatch of ours read, the size the raw three-hop chain gives its middle hop. */
  private volatile int dispatchedBytes;

  private TerminalReader(String prefix, Target.Answers answers) {
    this.prefix = prefix;
    this.answers = answers;
  }

  /** Starts reading from the topic's current end. */
  static TerminalReader start(String bootstrapServers, String prefix, Target.Answers answers)
      throws InterruptedException {
    var terminals = new TerminalReader(prefix, answers);
    terminals.reader = TopicReader.start(bootstrapServers, "bench-terminals", Topics.TRANSFERS,
        terminals.new TerminalsAndDispatches(), terminals::onRecord);
    return terminals;
  }

  /**
   * Sends probe requests through {@code send} until one completes: the coordinator has then folded
   * both nodes' registrations and the whole path works.
   */
  void awaitFirstCompletion(LongConsumer send, long firstProbe, Duration limit) throws InterruptedException {
    long end = System.nanoTime() + limit.toNanos();
    for (long probe = firstProbe; System.nanoTime() < end; probe--) {
      send.accept(probe);
      Boolean ok = probes.poll(10, TimeUnit.SECONDS);
      if (Boolean.TRUE.equals(ok)) {
        return;
      }
      Thread.sleep(200);
    }
    throw KvfleetException.benchFailed("no probe transfer completed within " + limit
        + "; is the coordinator reading " + Topics.ALL + "?", null);
  }

  private void onRecord(ConsumerRecord<String, Decoded> record) {
    long now = System.nanoTime();
    if (!(record.value() instanceof Decoded.Event e)) { // skipped by its header (null), or unreadable
      return;
    }
    if (dispatchedBytes == 0 && e.envelope().data() instanceof TransferDispatched) {
      dispatchedBytes = record.serializedValueSize();
    }
    var outcome = outcome(e.envelope().data());
    String id = e.envelope().data().subject();
    if (outcome == Outcome.NOT_TERMINAL || !id.startsWith(prefix)) {
      return;
    }
    long n = Long.parseLong(id, prefix.length(), id.length(), 10);
    if (n < 0) {
      probes.offer(outcome == Outcome.OK);
    } else {
      answers.answered(n, now, outcome == Outcome.OK);
    }
  }

  /** The encoded size of a dispatch of ours as read from the log (0 before the first). */
  int dispatchedBytes() {
    return dispatchedBytes;
  }

  private static Outcome outcome(FleetEvent event) {
    return switch (event) {
      case TransferCompleted _ -> Outcome.OK;
      case TransferFailed _, TransferRejected _, TransferTimedOut _ -> Outcome.FAILED;
      case TransferRequested _, TransferDispatched _, PeerJoined _, PeerHeartbeat _, PeerLost _,
          PeerLeft _, RegionRegistered _, RegistrationFailed _, RegionSkipped _, RegionDeregistered _,
          RegistrationDecision _, ModelLayoutDeclared _, OpaqueEvent _ -> Outcome.NOT_TERMINAL;
    };
  }

  private enum Outcome { OK, FAILED, NOT_TERMINAL }

  /**
   * Decodes what this reader needs: the terminal events, and dispatches until it has seen one (for
   * its size); a record whose {@code ce_type} header names anything else comes back null unread, as
   * a router watching outcomes would skip it. Records without the header are decoded.
   */
  private final class TerminalsAndDispatches implements Deserializer<Decoded> {
    private final EnvelopeDeserializer decoder = new EnvelopeDeserializer();

    @Override
    public Decoded deserialize(String topic, byte[] data) {
      return decoder.deserialize(topic, data);
    }

    @Override
    public Decoded deserialize(String topic, Headers headers, byte[] data) {
      var type = TypeHeader.of(headers);
      if (type.isPresent() && !TERMINAL.contains(type.get())
          && !(dispatchedBytes == 0 && type.get().equals(EventType.TRANSFER_DISPATCHED.wireName()))) {
        return null;
      }
      return decoder.deserialize(topic, headers, data);
    }
  }

  private static final java.util.Set<String> TERMINAL = java.util.Set.of(
      EventType.TRANSFER_COMPLETED.wireName(), EventType.TRANSFER_FAILED.wireName(),
      EventType.TRANSFER_REJECTED.wireName(), EventType.TRANSFER_TIMED_OUT.wireName());

  @Override
  public void close() {
    if (reader != null) {
      reader.close();
    }
  }
}
