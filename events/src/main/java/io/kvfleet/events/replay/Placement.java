package io.kvfleet.events.replay;

import java.util.Optional;

/**
 * Why a record is not where its writer put it, if it is not (a transfer record copied into another
 * partition than its key maps to: neither key nor partition is signed). A verifying replay refuses such
 * a record as a verifying coordinator does ({@code EVENT_MISPLACED}), so that their folds agree; the
 * rule is Kafka's partitioner, so the control plane supplies it.
 */
@FunctionalInterface
public interface Placement {
  /** No record is out of place (the partitions are not known). */
  Placement ANYWHERE = record -> Optional.empty();

  /** Why {@code record} is out of place, or empty. */
  Optional<String> misplaced(LogRecord record);
}
