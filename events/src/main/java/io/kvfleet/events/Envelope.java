package io.kvfleet.events;

import static java.util.Objects.requireNonNull;

import java.time.Instant;
import java.util.UUID;

/**
 * An event with its provenance, written as one CloudEvents 1.0 structured-mode JSON document.
 * {@code producer}, {@code epoch} and {@code sequence} identify who wrote it and in what order:
 * sequences start at 1 for each (producer, epoch) and rise by one, so a replay can see gaps.
 *
 * @param id unique event id (CloudEvents {@code id})
 * @param producer the node or coordinator that wrote the event
 * @param epoch the producer's incarnation
 * @param sequence the producer's sequence number within its epoch, from 1
 * @param time when the producer wrote it
 * @param correlationId the transfer id or registration batch id the event belongs to; may be empty
 */
public record Envelope(
    String id,
    String producer,
    long epoch,
    long sequence,
    Instant time,
    String correlationId,
    FleetEvent data) {
  public Envelope {
    requireNonNull(id, "id must not be null");
    if (id.isEmpty()) {
      throw new IllegalArgumentException("id must not be empty (CloudEvents requires one)");
    }
    requireNonNull(producer, "producer must not be null");
    requireNonNull(time, "time must not be null");
    requireNonNull(correlationId, "correlationId must not be null (use \"\")");
    requireNonNull(data, "data must not be null");
    if (sequence < 1) {
      throw new IllegalArgumentException("sequence starts at 1: " + sequence);
    }
  }

  /** A new envelope with a random id. */
  public static Envelope of(
      String producer, long epoch, long sequence, Instant time, String correlationId, FleetEvent data) {
    return new Envelope(UUID.randomUUID().toString(), producer, epoch, sequence, time, correlationId, data);
  }

  /** The CloudEvents {@code type}. */
  public String type() {
    return data.wireType();
  }

  /** The CloudEvents {@code source}: a URI reference naming the producer. */
  public String source() {
    return "/kvfleet/" + producer;
  }

  /** The CloudEvents {@code subject}: the entity the event is about. */
  public String subject() {
    return data.subject();
  }
}
