package io.kvfleet.control.coordinator;

import io.kvfleet.events.replay.FoldOrder;
import java.util.SortedMap;

/**
 * Where a coordinator's fold stands, for checking a replay against it: the hash of its state, the
 * offsets it has folded up to, and the order it folded them in. A replay of the same records in
 * {@code order} (from Kafka or an export) reaches {@code hash}.
 *
 * @param applied envelopes folded, duplicates included
 * @param nextOffsets per partition ({@code topic-partition}), the offset after the last record folded
 * @param order the order the records were folded in, from the start of the log
 * @param startedFrom the snapshot file the coordinator started from; empty when it folded the log from the start
 * @param keepEndedMillis how long its fold keeps an ended transfer: a replay must fold with the same window
 */
public record FoldPosition(
    String coordinatorId, long applied, String hash, SortedMap<String, Long> nextOffsets, FoldOrder order,
    String startedFrom, long keepEndedMillis) {

  /** The EventBus address a coordinator answers fold-position requests on. */
  public static String address(String coordinatorId) {
    return "kvfleet.coordinator." + coordinatorId + ".position";
  }
}
