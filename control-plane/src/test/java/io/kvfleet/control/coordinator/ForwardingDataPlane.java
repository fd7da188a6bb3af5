package io.kvfleet.control.coordinator;

import io.kvfleet.control.dataplane.DataPlane;
import io.kvfleet.control.dataplane.InProcessDataPlane;
import io.kvfleet.control.protocol.TransferOrder;
import io.kvfleet.events.BackendCapability;
import io.kvfleet.events.FleetEvent;
import io.kvfleet.events.RegionSpec;
import java.util.List;

/** Failure injection's base: a jvm data plane that a test changes one transfer step of. */
abstract class ForwardingDataPlane implements DataPlane {
  final InProcessDataPlane real = new InProcessDataPlane();

  @Override
  public String transportAddress() {
    return real.transportAddress();
  }

  @Override
  public List<BackendCapability> capabilities() {
    return real.capabilities();
  }

  @Override
  public List<FleetEvent> register(String nodeId, long epoch, RegionSpec region, String handle) {
    return real.register(nodeId, epoch, region, handle);
  }

  @Override
  public List<FleetEvent> deregister(String nodeId, long epoch, String regionId) {
    return real.deregister(nodeId, epoch, regionId);
  }

  @Override
  public FleetEvent transfer(TransferOrder order) {
    return real.transfer(order);
  }

  @Override
  public void close() {
    real.close();
  }
}
