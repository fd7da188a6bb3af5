package io.kvfleet.control.console;

import io.kvfleet.events.Envelope;
import io.kvfleet.events.TransferRequested;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * Which events {@code kvfleet tail} prints: those about a node (its own events, and every event of a transfer from
 * or to it), of one transfer, and of types starting with a prefix; each given filter must hold. A transfer's
 * destination is named only by its request, so the requests read are remembered, the newest {@link #TRANSFERS}: a
 * transfer to the node whose request was not read (deleted by retention, or older than those) is not shown: its
 * other events name only its source. One thread at a time calls it.
 */
public final class TailFilter {
  static final int TRANSFERS = 100_000;
  private static final String WIRE_PREFIX = "io.kvfleet.";
  private final String node;
  private final String transfer;
  private final String typePrefix;
  private final Set<String> toNode = java.util.Collections.newSetFromMap(new LinkedHashMap<>(1024, 0.75f, false) {
    @Override
    protected boolean removeEldestEntry(Map.Entry<String, Boolean> eldest) {
      return size() > TRANSFERS;
    }
  });

  /** Each argument may be null: no filter on it. {@code type} may leave out {@code io.kvfleet.}. */
  public TailFilter(String node, String transfer, String type) {
    this.node = node;
    this.transfer = transfer;
    this.typePrefix = type == null ? null : type.startsWith(WIRE_PREFIX) ? type : WIRE_PREFIX + type;
  }

  /** Whether {@code envelope} is shown; call it for every event in log order. */
  public boolean shows(Envelope envelope) {
    return shows(envelope, true);
  }

  /**
   * Whether {@code envelope} is shown; a request is remembered as one to the node only when {@code trusted} (a
   * forged flood of requests then cannot push the real ones out and hide their endings).
   */
  public boolean shows(Envelope envelope, boolean trusted) {
    var event = envelope.data();
    boolean isTransfer = envelope.type().startsWith("io.kvfleet.transfer.");
    boolean requestToNode = node != null && event instanceof TransferRequested r && r.destinationNode().equals(node);
    if (requestToNode && trusted) {
      toNode.add(event.subject());
    }
    if (typePrefix != null && !envelope.type().startsWith(typePrefix)) {
      return false;
    }
    if (transfer != null && !(isTransfer && event.subject().equals(transfer))) {
      return false;
    }
    return node == null || requestToNode || event.nodeId().equals(node)
        || (isTransfer && toNode.contains(event.subject()));
  }
}
