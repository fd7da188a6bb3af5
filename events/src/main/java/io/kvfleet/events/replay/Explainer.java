package io.kvfleet.events.replay;

import io.kvfleet.events.state.FleetState;

/** Picks the explainer for a target. */
final class Explainer {
  private Explainer() {}

  static Explanation explain(ExplainTarget target, History history, FleetState state) {
    return switch (target) {
      case ExplainTarget.Transfer t -> TransferExplainer.explain(t.transferId(), history, state);
      case ExplainTarget.Region r -> RegionExplainer.explain(r, history, state);
      case ExplainTarget.Node n -> NodeExplainer.explain(n.nodeId(), history, state);
    };
  }
}
