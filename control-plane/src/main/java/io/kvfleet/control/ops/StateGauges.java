package io.kvfleet.control.ops;

import io.kvfleet.events.state.FleetState;
import io.kvfleet.events.state.PeerStatus;
import io.kvfleet.events.state.RegionStatus;
import io.micrometer.core.instrument.MeterRegistry;

/** What the fleet state holds now, as gauges: transfers in flight, peers alive, registered bytes. */
final class StateGauges {
  private final Gauges inFlight;
  private final Gauges peersAlive;
  private final Gauges registeredBytes;
  private final LabelValues labels = new LabelValues(label -> { }); // counted where the records are folded

  StateGauges(MeterRegistry registry) {
    inFlight = new Gauges(registry, "kvfleet_transfers_in_flight", "transfers requested and not yet ended");
    peersAlive = new Gauges(registry, "kvfleet_peers_alive", "peers whose current incarnation is alive, by role");
    registeredBytes = new Gauges(registry, "kvfleet_engine_registered_bytes",
        "bytes of live regions registered, by backend and memory type");
  }

  /** Reads {@code state} (on the thread that owns it). */
  void refresh(FleetState state) {
    inFlight.set(state.inFlightTransfers().size());
    peersAlive.reset();
    for (var peer : state.peers()) {
      peersAlive.add(peer.status() == PeerStatus.ALIVE ? 1 : 0, "role", Roles.of(peer.nodeId()));
    }
    registeredBytes.reset();
    for (var region : state.regions()) {
      if (region.status() != RegionStatus.LIVE) {
        continue;
      }
      for (String backend : region.remoteKeys().keySet()) {
        registeredBytes.add(region.spec().length(), "backend", labels.of("backend", backend), "memory_type",
            region.spec().memoryType().name());
      }
    }
  }
}
