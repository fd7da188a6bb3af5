package io.kvfleet.control.agent;

import io.kvfleet.events.BackendCapability;
import io.kvfleet.events.FleetEvent;
import io.kvfleet.events.RegionSpec;
import java.util.List;

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

  @Override
  void close();
}
