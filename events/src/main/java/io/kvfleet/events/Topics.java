package io.kvfleet.events;

import java.util.List;

/**
 * Topic and key conventions, in one place. Peer and registration events are keyed by node;
 * transfer events by source node, so each node's events stay ordered within a partition.
 */
public final class Topics {
  private Topics() {}

  public static final String PEERS = "kvfleet.peers";
  public static final String REGISTRATIONS = "kvfleet.registrations";
  public static final String TRANSFERS = "kvfleet.transfers";

  /** Every fleet topic, in the order a replay reads them. */
  public static final List<String> ALL = List.of(PEERS, REGISTRATIONS, TRANSFERS);

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

  private static String topicOfWireType(String wireType) {
    if (wireType.startsWith("io.kvfleet.transfer.")) {
      return TRANSFERS;
    }
    if (wireType.startsWith("io.kvfleet.region.")) {
      return REGISTRATIONS;
    }
    return PEERS;
  }
}
