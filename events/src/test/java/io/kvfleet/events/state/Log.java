package io.kvfleet.events.state;

import io.kvfleet.events.Envelope;
import io.kvfleet.events.FleetEvent;
import io.kvfleet.events.Samples;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** A log as tests write it: each event a second after the last, with its writer's next sequence. */
public final class Log {
  private final List<Envelope> envelopes = new ArrayList<>();
  private final Map<String, Long> sequences = new HashMap<>();

  /** Appends events written by the default producer, {@code writer} at epoch 1. */
  public Log append(FleetEvent... events) {
    for (FleetEvent event : events) {
      append("writer", 1, event);
    }
    return this;
  }

  public Log append(String producer, long epoch, FleetEvent event) {
    long sequence = sequences.merge(producer + "@" + epoch, 1L, Long::sum);
    return append(producer, epoch, sequence, event);
  }

  public Log append(String producer, long epoch, long sequence, FleetEvent event) {
    Instant time = Samples.T0.plusSeconds(envelopes.size());
    envelopes.add(new Envelope("e-" + envelopes.size(), producer, epoch, sequence, time, "", event));
    return this;
  }

  /** Appends an envelope already in the log again, as a redelivery would. */
  public Log redeliver(int index) {
    envelopes.add(envelopes.get(index));
    return this;
  }

  public Envelope last() {
    return envelopes.getLast();
  }

  public List<Envelope> envelopes() {
    return List.copyOf(envelopes);
  }

  public FleetState fold() {
    return FleetState.fold(envelopes);
  }
}
