package io.kvfleet.control.cli;

import java.util.Optional;

/** The line a node prints at start when its UCX may use tcp: what {@code --ucx-allow-tcp} opens (docs/SECURITY.md, F0). */
final class UcxTcpWarning {
  private UcxTcpWarning() {}

  /** The warning for node {@code nodeId}, or empty when tcp is not allowed. */
  static Optional<String> line(String nodeId, boolean ucxAllowTcp) {
    if (!ucxAllowTcp) {
      return Optional.empty();
    }
    return Optional.of("kvfleet: WARNING: UCX's tcp transport is ON (node " + nodeId + ", --ucx-allow-tcp): any"
        + " process that reaches this node's UCX TCP port can write and read ANY address of this process, no"
        + " record, key or grant needed; firewall it to fleet members (see docs/SECURITY.md, F0)");
  }
}
