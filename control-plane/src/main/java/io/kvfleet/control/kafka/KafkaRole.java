package io.kvfleet.control.kafka;

import java.util.Locale;

/**
 * Who talks to a secured fleet Kafka, each a SCRAM user of its own name with the ACLs of
 * {@link FleetAcls}: an admin (topics, ACLs; a super user), coordinators, node agents, routers
 * (request transfers) and observers ({@code tail}, {@code export}, {@code replay}).
 */
public enum KafkaRole {
  /** Creates topics and ACLs: a super user. */
  ADMIN,
  /** Folds both topics, decides, ends transfers, dead-letters poison. */
  COORDINATOR,
  /** A node agent: joins, heartbeats, registrations, transfer outcomes; watches its own loss. */
  NODE,
  /** Requests transfers, and nothing else. */
  ROUTER,
  /** Reads the fleet topics: tail, export, replay, explain. */
  OBSERVER;

  /** The SCRAM user name, and the name of the role's client properties file ({@code <user>.properties}). */
  public String user() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** The Kafka principal. */
  public String principal() {
    return "User:" + user();
  }
}
