package io.kvfleet.control.replay;

import io.kvfleet.events.TransferRequested;
import io.kvfleet.events.codec.Decoded;
import java.util.HashSet;
import java.util.Set;

/**
 * Keeps the records about one node: its own life and regions, the transfers it is the source or
 * the destination of (every event of such a transfer, once its request was seen), and unreadable
 * records under its key.
 */
final class NodeFilter {
  private final String nodeId;
  private final Set<String> transfers = new HashSet<>();

  NodeFilter(String nodeId) {
    this.nodeId = nodeId;
  }

  boolean keeps(String key, Decoded decoded) {
    return switch (decoded) {
      case Decoded.Malformed m -> nodeId.equals(key);
      case Decoded.Event e -> {
        var event = e.envelope().data();
        if (event instanceof TransferRequested r && (r.sourceNode().equals(nodeId) || r.destinationNode().equals(nodeId))) {
          transfers.add(r.transferId());
          yield true;
        }
        yield nodeId.equals(event.nodeId()) || transfers.contains(event.subject()) && isTransfer(e);
      }
    };
  }

  private static boolean isTransfer(Decoded.Event e) {
    return e.envelope().type().startsWith("io.kvfleet.transfer.");
  }
}
