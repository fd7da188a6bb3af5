package io.kvfleet.events.replay;

import static java.util.Objects.requireNonNull;

/** The entity an explanation is about. */
public sealed interface ExplainTarget {

  /** One transfer, by id. */
  record Transfer(String transferId) implements ExplainTarget {
    public Transfer {
      requireNonNull(transferId, "transferId must not be null");
    }
  }

  /**
   * One region, by node and region id.
   *
   * @param nodeId the node that owns it; empty when the region id names one region on one node only
   */
  record Region(String nodeId, String regionId) implements ExplainTarget {
    public Region {
      requireNonNull(nodeId, "nodeId must not be null (use \"\")");
      requireNonNull(regionId, "regionId must not be null");
    }
  }

  /** One node, all its incarnations. */
  record Node(String nodeId) implements ExplainTarget {
    public Node {
      requireNonNull(nodeId, "nodeId must not be null");
    }
  }

  /** {@code transfer ID}, {@code region [NODE/]REGION} or {@code node ID}. */
  static ExplainTarget of(String kind, String id) {
    return switch (kind) {
      case "transfer" -> new Transfer(id);
      case "region" -> {
        int slash = id.indexOf('/');
        yield slash < 0 ? new Region("", id) : new Region(id.substring(0, slash), id.substring(slash + 1));
      }
      case "node" -> new Node(id);
      default -> throw new IllegalArgumentException("explain transfer, region or node, not '" + kind + "'");
    };
  }
}
