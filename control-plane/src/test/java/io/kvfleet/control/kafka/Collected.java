package io.kvfleet.control.kafka;

import io.kvfleet.events.Envelope;
import io.kvfleet.events.codec.Decoded;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/** What an {@link EventTail} read, collected for assertions (thread-safe). */
public final class Collected {
  private final List<ConsumerRecord<String, Decoded>> records = new ArrayList<>();

  public synchronized void add(ConsumerRecord<String, Decoded> record) {
    records.add(record);
  }

  public synchronized List<ConsumerRecord<String, Decoded>> records() {
    return List.copyOf(records);
  }

  public synchronized List<Envelope> envelopes() {
    return records.stream()
        .map(ConsumerRecord::value)
        .flatMap(d -> d instanceof Decoded.Event e ? java.util.stream.Stream.of(e.envelope()) : java.util.stream.Stream.empty())
        .toList();
  }

  public synchronized long malformed() {
    return records.stream().filter(r -> r.value() instanceof Decoded.Malformed).count();
  }

  public synchronized int size() {
    return records.size();
  }
}
