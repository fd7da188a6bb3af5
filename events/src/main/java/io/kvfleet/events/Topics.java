package io.kvfleet.events;

import java.util.List;

/**
 * Topic and key conventions, in one place. A node's own life (join, heartbeats, registrations,
 * loss, departure) is one topic keyed by node, so Kafka keeps each node's events in order: a
 * registration is never read before the join of its epoch. Transfer events are keyed by source
 * node, so each node's transfers stay ordered too.
 */
public final class Topics {
  private Topics() {}

  /** Peer and region events, keyed by node. */
  public static final String NODES = "kvfleet.nodes";
  /** Transfer events, keyed by source node. */
  public static final String TRANSFERS = "kvfleet.transfers";

  /**
   * Copies of records a coordinator could not fold, with why (headers {@code kvfleet.dlq.*}); not
   * an event topic, so replays do not read it.
   */
  public static final String DEADLETTER = "kvfleet.deadletter";

  /** Every fleet topic, in the order a replay reads them. */
  public static final List<String> ALL = List.of(NODES, TRANSFERS);

  /** The record content type of CloudEvents structured mode. */
  public static final String CONTENT_TYPE = "application/cloudevents+json";

  /** The topic an event is written to. */
  public static String topicOf(FleetEvent event) {
    return switch (event) {
      case OpaqueEvent e -> topicOfWireType(e.wireType());
      default -> EventType.of(event).topic();
    };
  }

  /** The Kafka record key of an event: the node it is about (transfers: the source node). */
  public static String keyOf(FleetEvent event) {
    return event.nodeId();
  }

  /** The topic an envelope is written to. */
  public static String topicOf(Envelope envelope) {
    return topicOf(envelope.data());
  }

  /** The Kafka record key of an envelope. */
  public static String keyOf(Envelope envelope) {
    return keyOf(envelope.data());
  }

  private static String topicOfWireType(String wireType) {
    return wireType.startsWith("io.kvfleet.transfer.") ? TRANSFERS : NODES;
  }
}
