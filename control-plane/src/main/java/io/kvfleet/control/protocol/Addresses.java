package io.kvfleet.control.protocol;

/** The EventBus addresses of a node's agent: one for transfer orders, one for staged chunks to land. */
public final class Addresses {
  private Addresses() {}

  /** The EventBus address an agent takes its transfer orders on. */
  public static String transfers(String nodeId) {
    return "kvfleet.agent." + nodeId + ".transfers";
  }

  /** The EventBus address an agent takes staged chunks to land on. */
  public static String landings(String nodeId) {
    return "kvfleet.agent." + nodeId + ".landings";
  }
}
