package io.kvfleet.control.coordinator;

import io.kvfleet.events.state.FleetState;
import io.vertx.core.Future;
import java.util.Map;

/** What a {@link FoldWatcher} may read of its coordinator, on the coordinator's event loop only. */
public interface CoordinatorView {
  /** The fleet state as folded so far; read it, never change it. */
  FleetState state();

  /** The coordinator's counts and whether it has caught up. */
  CoordinatorStatus status();

  /** Its fold's hash and the offsets it covers. */
  FoldPosition position();

  /** The end offset of each partition it reads, by {@code topic-partition}, as Kafka answers now. */
  Future<Map<String, Long>> endOffsets();

  /** Events its publisher holds that Kafka has not yet acknowledged, and the most it holds. */
  int publisherWaiting();

  /** The most events its publisher holds for Kafka. */
  int publisherCapacity();
}
