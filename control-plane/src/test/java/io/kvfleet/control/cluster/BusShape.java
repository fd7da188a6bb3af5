package io.kvfleet.control.cluster;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.nio.file.Path;
import java.util.List;

/** The cluster shapes the bus bench compares: Hazelcast as before, Infinispan in the clear, Infinispan closed by TLS. */
enum BusShape {
  HAZELCAST("Hazelcast (before)"),
  INFINISPAN("Infinispan, plain"),
  INFINISPAN_CLOSED("Infinispan, closed (TLS)");

  final String label;

  BusShape(String label) {
    this.label = label;
  }

  /** Joins {@code name} on loopback from {@code port}; {@code tlsDir} holds the member's certificate for the closed shape. */
  Future<Vertx> join(String name, int port, List<String> members, Path tlsDir) {
    return switch (this) {
      case HAZELCAST -> HazelcastReference.join(name, "127.0.0.1", port, members);
      case INFINISPAN -> ClusteredVertx.join(name, "127.0.0.1", port, members, BusSecurity.plaintext());
      case INFINISPAN_CLOSED -> ClusteredVertx.join(name, "127.0.0.1", port, members, BusSecurity.fromDirectory(tlsDir));
    };
  }
}
