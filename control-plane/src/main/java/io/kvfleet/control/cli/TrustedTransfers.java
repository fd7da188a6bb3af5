package io.kvfleet.control.cli;

import io.kvfleet.events.TransferDispatched;
import io.kvfleet.events.TransferRequested;
import io.kvfleet.events.codec.Decoded;
import io.kvfleet.events.trust.Dispatch;
import io.kvfleet.events.trust.Verdict;
import io.kvfleet.events.trust.Verifier;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * A reader's verdicts on transfer records as a verifying coordinator gives them: each ending is checked against
 * the trusted request and dispatch of its transfer, so those are remembered (the newest {@link #KEPT}). One
 * thread, or its owner's monitor, calls it.
 */
final class TrustedTransfers {
  /** Transfers whose trusted request is remembered for their endings. */
  static final int KEPT = 100_000;

  private final Verifier verifier;
  private final Map<String, Dispatch> transfers = new LinkedHashMap<>(1024, 0.75f, false) {
    @Override
    protected boolean removeEldestEntry(Map.Entry<String, Dispatch> eldest) {
      return size() > KEPT;
    }
  };

  TrustedTransfers(Verifier verifier) {
    this.verifier = verifier;
  }

  /** Whether it verifies at all. */
  boolean isOn() {
    return verifier.isOn();
  }

  /** The verifier's refusal of {@code e}, if any; a trusted request or dispatch is remembered for its ending. */
  Optional<Verdict.Refused> refusal(Decoded.Event e) {
    if (verifier.isOn() && verifier.check(e.raw(), e.envelope(), id -> Optional.ofNullable(transfers.get(id)))
        instanceof Verdict.Refused r) {
      return Optional.of(r);
    }
    switch (e.envelope().data()) {
      case TransferRequested q -> transfers.putIfAbsent(q.transferId(), new Dispatch(q.sourceNode(), false));
      case TransferDispatched d -> transfers.computeIfPresent(d.transferId(), (id, t) -> new Dispatch(t.sourceNode(),
          true));
      default -> { }
    }
    return Optional.empty();
  }
}
