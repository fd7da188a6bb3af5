package io.kvfleet.events.state;

import static java.util.Objects.requireNonNull;

import io.kvfleet.events.RegionSpec;
import java.util.Collections;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * A region of a node at one epoch, with what each backend said about it.
 *
 * @param remoteKeys backend name to the remote key peers use to reach the region
 * @param failedBackends backend name to the reason code of its refusal
 */
public record RegionView(
    String nodeId,
    String regionId,
    long epoch,
    RegionSpec spec,
    SortedMap<String, String> remoteKeys,
    SortedMap<String, String> failedBackends,
    RegionStatus status) {
  public RegionView {
    requireNonNull(nodeId, "nodeId must not be null");
    requireNonNull(regionId, "regionId must not be null");
    requireNonNull(spec, "spec must not be null");
    remoteKeys = Collections.unmodifiableSortedMap(new TreeMap<>(requireNonNull(remoteKeys, "remoteKeys")));
    failedBackends =
        Collections.unmodifiableSortedMap(new TreeMap<>(requireNonNull(failedBackends, "failedBackends")));
    requireNonNull(status, "status must not be null");
  }

  static RegionView empty(String nodeId, long epoch, RegionSpec spec) {
    return new RegionView(
        nodeId, spec.regionId(), epoch, spec, new TreeMap<>(), new TreeMap<>(), RegionStatus.FAILED);
  }

  RegionView withSpec(RegionSpec newSpec) {
    return new RegionView(nodeId, regionId, epoch, newSpec, remoteKeys, failedBackends, status);
  }

  RegionView withRemoteKey(String backend, String remoteKey) {
    var keys = new TreeMap<>(remoteKeys);
    keys.put(backend, remoteKey);
    var failed = new TreeMap<>(failedBackends);
    failed.remove(backend);
    return new RegionView(nodeId, regionId, epoch, spec, keys, failed, RegionStatus.LIVE);
  }

  RegionView withFailure(String backend, String reason) {
    var failed = new TreeMap<>(failedBackends);
    failed.put(backend, reason);
    RegionStatus next = remoteKeys.isEmpty() ? RegionStatus.FAILED : RegionStatus.LIVE;
    return new RegionView(nodeId, regionId, epoch, spec, remoteKeys, failed, next);
  }

  RegionView withoutRemoteKey(String backend) {
    var keys = new TreeMap<>(remoteKeys);
    keys.remove(backend);
    RegionStatus next = keys.isEmpty() ? RegionStatus.DEREGISTERED : RegionStatus.LIVE;
    return new RegionView(nodeId, regionId, epoch, spec, keys, failedBackends, next);
  }

  RegionView stale() {
    return new RegionView(nodeId, regionId, epoch, spec, remoteKeys, failedBackends, RegionStatus.STALE);
  }
}
