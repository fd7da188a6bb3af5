package io.kvfleet.events.codec;

import io.kvfleet.events.ByteRange;
import io.kvfleet.events.EventType;
import io.kvfleet.events.FleetEvent;
import io.kvfleet.events.TransferCompleted;
import io.kvfleet.events.TransferDispatched;
import io.kvfleet.events.TransferOp;
import io.kvfleet.events.TransferRequested;
import java.util.List;
import java.util.Optional;

/**
 * Schema version 1 of the types whose version 2 added fields, each as a record of exactly version
 * 1's fields. The single-region forms still write version 1 (two thirds of a typical log), so
 * {@link StreamingReader} binds such data straight from the stream into these and makes the current
 * record with its version-1 constructor, whose defaults are the ones {@link OlderVersions} puts in
 * a tree. Their reader refuses unknown fields: data with any field but version 1's (a field of a
 * later version, an extension) fails the binding, and the tree reader decides, as before.
 */
final class VersionOne {
  private VersionOne() {}

  /** Version 1's data of a type, readable as the current record. */
  sealed interface Data {
    FleetEvent current();
  }

  record Requested(String transferId, String sourceNode, long sourceEpoch, String sourceRegion,
      String destinationNode, long destinationEpoch, String destinationRegion, TransferOp op, List<ByteRange> ranges,
      long deadlineMillis, boolean checksum) implements Data {
    @Override
    public FleetEvent current() {
      return new TransferRequested(transferId, sourceNode, sourceEpoch, sourceRegion, destinationNode,
          destinationEpoch, destinationRegion, op, ranges, deadlineMillis, checksum);
    }
  }

  record Completed(String transferId, String sourceNode, long bytes, long durationNanos, String path, String checksum)
      implements Data {
    @Override
    public FleetEvent current() {
      return new TransferCompleted(transferId, sourceNode, bytes, durationNanos, path, checksum);
    }
  }

  record Dispatched(String transferId, String sourceNode, String coordinatorId) implements Data {
    @Override
    public FleetEvent current() {
      return new TransferDispatched(transferId, sourceNode, coordinatorId);
    }
  }

  /** The record of {@code type}'s version 1, for the types whose later versions added fields. */
  static Optional<Class<? extends Data>> of(EventType type) {
    return Optional.ofNullable(switch (type) {
      case TRANSFER_REQUESTED -> Requested.class;
      case TRANSFER_COMPLETED -> Completed.class;
      case TRANSFER_DISPATCHED -> Dispatched.class;
      default -> null;
    });
  }
}
