package io.kvfleet.control.protocol;

import io.kvfleet.events.ReasonCodes;
import java.util.Optional;

/** How a source's data plane reaches a destination's agent to land a staged chunk (blocking). */
@FunctionalInterface
public interface Landings {
  /** None: for data planes and tests with no other agent to reach. */
  Landings NONE = (node, chunk) -> Optional.of(new Refused(ReasonCodes.NOT_EXPOSED, 0,
      "no way to reach " + node + "'s agent to land a staged chunk"));

  /** Asks {@code destinationNode}'s agent to take {@code chunk}; empty once it has landed. */
  Optional<Refused> land(String destinationNode, StagedChunk chunk);

  /** Why a chunk did not land: a transfer reason code, the native code and the words. */
  record Refused(String reason, long nativeCode, String detail) {}
}
