package io.kvfleet.control.ops;

/**
 * A node's role as a metric label. Node ids are unbounded, roles are not: a node named
 * {@code prefill-...} or {@code decode-...} has that role, any other {@code other}.
 */
final class Roles {
  private Roles() {}

  static String of(String nodeId) {
    if (nodeId.startsWith("prefill")) {
      return "prefill";
    }
    return nodeId.startsWith("decode") ? "decode" : "other";
  }
}
