package io.kvfleet.control.dataplane;

import io.kvfleet.control.protocol.TransferOrder;
import io.kvfleet.control.protocol.StagedChunk;
import io.kvfleet.control.protocol.Landings;
import io.kvfleet.events.BackendCapability;
import io.kvfleet.events.FleetEvent;
import io.kvfleet.events.RegionSpec;
import io.kvfleet.events.ReasonCodes;
import io.kvfleet.events.RegistrationFailed;
import java.util.List;
import java.util.Optional;

/**
 * A node's memory and transfer machinery as the agent sees it, speaking in events: each call
 * returns the events it produced, and the agent publishes them. Calls block (native work), so the
 * agent makes them on worker threads.
 */
public interface DataPlane extends AutoCloseable {
  /** What peers need to reach this node. */
  String transportAddress();

  /** What each backend can do, as probed at start. */
  List<BackendCapability> capabilities();

  /**
   * Registers a region: one outcome per backend tried (registered, failed or skipped).
   *
   * @param handle where the memory is when not at {@code region.address()} in this process:
   *     {@code shm:<name>} or {@code cuda-ipc:<base64>}; empty for an address
   */
  List<FleetEvent> register(String nodeId, long epoch, RegionSpec region, String handle);

  /** Releases a region from every backend that holds it: one event per backend, none if unknown. */
  List<FleetEvent> deregister(String nodeId, long epoch, String regionId);

  /** Runs a dispatched transfer and returns its one terminal event (completed or failed). */
  FleetEvent transfer(TransferOrder order);

  /**
   * {@link #transfer(TransferOrder)}, reaching other nodes' agents through {@code landings} when
   * the transfer takes the staged path.
   */
  default FleetEvent transfer(TransferOrder order, Landings landings) {
    return transfer(order);
  }

  /**
   * {@link #transfer(TransferOrder, Landings)} under the source's lease: no page starts, nor does its
   * batch go on being waited for, once {@code fence} says the lease is not proven, and the transfer
   * completes only if {@code fence} proves, after each page landed, that it landed in time; else it
   * fails {@link LandedLate}. This default has no pages of its own: it asks once, after the whole.
   */
  default FleetEvent transfer(TransferOrder order, Landings landings, Fence fence) {
    return LandedLate.proven(transfer(order, landings), order.request(), fence);
  }

  /** Whether {@code backend} moves bytes between hosts (ucx does; cuda IPC and process_vm do not). */
  default boolean reachesOtherHosts(String backend) {
    return false;
  }

  /**
   * Offers a region no transport registered through the staged path (policy {@code
   * FALLBACK_STAGED}): a {@code staged} registration, or the reason there is none.
   */
  default List<FleetEvent> stage(String nodeId, long epoch, RegionSpec region) {
    return List.of(new RegistrationFailed(nodeId, epoch, region, "staged", ReasonCodes.BACKEND_UNAVAILABLE,
        "this data plane has no staged path", 0, "",
        new BackendCapability("staged", false, "", List.of(), List.of(), "no staged path"),
        "run the node on the native engine"));
  }

  /** The destination's half of a staged chunk: pull it and land it; empty once it has landed. */
  default Optional<Landings.Refused> land(StagedChunk chunk) {
    return Optional.of(new Landings.Refused(ReasonCodes.NOT_EXPOSED, 0, "this data plane stages nothing"));
  }

  @Override
  void close();
}
