package io.kvfleet.control.replay.bench;

import io.kvfleet.events.PeerLost;
import io.kvfleet.events.ReasonCodes;
import io.kvfleet.events.TransferCompleted;
import io.kvfleet.events.TransferDispatched;
import io.kvfleet.events.TransferFailed;
import io.kvfleet.events.TransferRejected;
import io.kvfleet.events.TransferRequested;
import io.kvfleet.events.TransferTimedOut;
import java.util.ArrayDeque;

/** The synthetic fleet's transfers: requests, decisions and outcomes, a few in flight at a time. */
final class Transfers {
  private static final String ROUTER = "router-0";
  private static final String COORDINATOR = "coordinator-0";

  private final SyntheticFleet fleet;
  private final ArrayDeque<TransferRequested> inFlight = new ArrayDeque<>();
  private long count;

  Transfers(SyntheticFleet fleet) {
    this.fleet = fleet;
  }

  /** One request, its decision, and the outcome of the oldest transfer in flight once enough are. */
  void step() {
    String id = "t-" + (++count);
    String source = SyntheticFleet.prefill(fleet.random.nextInt(SyntheticFleet.NODES_PER_ROLE));
    String destination = SyntheticFleet.decode(fleet.random.nextInt(SyntheticFleet.NODES_PER_ROLE));
    boolean outOfBounds = count % 10 == 0;
    var request = fleet.request(id, source, destination, fleet.epochs.get(destination), outOfBounds);
    fleet.emit(ROUTER, request);
    if (outOfBounds) {
      fleet.emit(COORDINATOR, new TransferRejected(id, source, ReasonCodes.OUT_OF_BOUNDS,
          "range exceeds destination length " + (64L << 20)));
    } else {
      fleet.emit(COORDINATOR, new TransferDispatched(id, source, COORDINATOR));
      inFlight.add(request);
    }
    if (inFlight.size() > 8) {
      end(inFlight.poll());
    }
  }

  private void end(TransferRequested r) {
    int dice = fleet.random.nextInt(100);
    if (dice < 95) {
      fleet.emit(r.sourceNode(), new TransferCompleted(r.transferId(), r.sourceNode(), r.totalBytes(),
          50_000 + fleet.random.nextInt(200_000), "ucx/tcp", Integer.toHexString(fleet.random.nextInt())));
    } else if (dice < 99) {
      fleet.emit(r.sourceNode(), new TransferFailed(r.transferId(), r.sourceNode(), ReasonCodes.TRANSPORT_ERROR, -25,
          "UCS_ERR_ENDPOINT_TIMEOUT"));
    } else {
      fleet.emit(COORDINATOR, new TransferTimedOut(r.transferId(), r.sourceNode(), r.deadlineMillis()));
    }
  }

  /** A decode node is lost: its in-flight transfers fail, it rejoins, a late request names the old epoch. */
  void crash(String node) {
    long old = fleet.epochs.get(node);
    fleet.emit(COORDINATOR, new PeerLost(node, old, ReasonCodes.LEASE_EXPIRED, fleet.now.minusSeconds(2).toEpochMilli()));
    var survivors = new ArrayDeque<TransferRequested>();
    for (var t : inFlight) {
      if (t.destinationNode().equals(node)) {
        fleet.emit(COORDINATOR, new TransferFailed(t.transferId(), t.sourceNode(), ReasonCodes.PEER_LOST, 0,
            node + " epoch " + old + " missed its lease"));
      } else {
        survivors.add(t);
      }
    }
    inFlight.clear();
    inFlight.addAll(survivors);
    fleet.join(node);
    String id = "t-stale-" + old;
    String source = SyntheticFleet.prefill(0);
    fleet.emit(ROUTER, fleet.request(id, source, node, old, false));
    fleet.emit(COORDINATOR, new TransferRejected(id, source, ReasonCodes.STALE_EPOCH,
        "request names " + node + " epoch " + old + ", current epoch is " + fleet.epochs.get(node)));
  }

  /** Ends every transfer still in flight. */
  void drain() {
    while (!inFlight.isEmpty()) {
      end(inFlight.poll());
    }
  }
}
