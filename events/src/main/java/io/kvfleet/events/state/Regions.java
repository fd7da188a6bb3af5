package io.kvfleet.events.state;

import io.kvfleet.events.RegionDeregistered;
import io.kvfleet.events.RegionRegistered;
import io.kvfleet.events.RegionSpec;
import io.kvfleet.events.RegistrationFailed;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;

/** The region part of the fold: live and stale regions, registration failures and their counts by reason. */
final class Regions {
  private final SortedMap<RegionKey, RegionView> views = new TreeMap<>();
  private final Recent<StaleRegistration> staleRegistrations;
  private final Set<RegionKey> staleKeys = new HashSet<>(); // every key a stale registration named
  private final Recent<RegistrationFailed> failures;
  private final SortedMap<String, Long> failuresByReason = new TreeMap<>();

  /** Regions that remember the last {@code history} stale registrations and failures (and count all). */
  Regions(int history) {
    this.staleRegistrations = new Recent<>(history);
    this.failures = new Recent<>(history);
  }

  /**
   * A registration at the node's current epoch is live unless that incarnation already ended (lost
   * or left): then, as one naming another epoch, it is kept as a stale registration.
   */
  void registered(RegionRegistered e, long currentEpoch, boolean currentEnded, Applying at) {
    var key = new RegionKey(e.nodeId(), e.region().regionId());
    if (e.epoch() != currentEpoch || currentEnded) {
      stale(key, e.backend(), e.epoch(), currentEpoch, at);
      return;
    }
    RegionView view = atEpoch(key, e.epoch(), e.region());
    if (view.remoteKeys().isEmpty()) {
      view = view.withSpec(e.region());
    } else if (!view.spec().equals(e.region())) {
      at.violation(
          "region " + key + " registered by " + e.backend()
              + " with a spec that differs from the one registered before; the first is kept");
    }
    views.put(key, view.withRemoteKey(e.backend(), e.remoteKey()));
  }

  void failed(RegistrationFailed e, long currentEpoch, boolean currentEnded, Applying at) {
    failures.add(e);
    failuresByReason.merge(e.reason(), 1L, Long::sum);
    var key = new RegionKey(e.nodeId(), e.region().regionId());
    if (e.epoch() != currentEpoch || currentEnded) {
      stale(key, e.backend(), e.epoch(), currentEpoch, at);
      return;
    }
    views.put(key, atEpoch(key, e.epoch(), e.region()).withFailure(e.backend(), e.reason()));
  }

  void deregistered(RegionDeregistered e, long currentEpoch, Applying at) {
    if (e.epoch() != currentEpoch) {
      return; // the regions of another incarnation are stale already
    }
    var key = new RegionKey(e.nodeId(), e.regionId());
    RegionView view = views.get(key);
    if (view == null || view.epoch() != e.epoch() || !view.remoteKeys().containsKey(e.backend())) {
      at.violation(
          "region " + key + " released by " + e.backend()
              + ", which had not registered it at epoch " + e.epoch());
      return;
    }
    views.put(key, view.withoutRemoteKey(e.backend()));
  }

  /** The node's incarnation at {@code epoch} was lost or left: what it registered live is void. */
  void ended(String nodeId, long epoch) {
    views.replaceAll((key, view) -> key.nodeId().equals(nodeId) && view.epoch() <= epoch
        && view.status() == RegionStatus.LIVE ? view.stale() : view);
  }

  /** A node's new incarnation voids every region of its older ones. */
  void rejoined(String nodeId, long epoch) {
    views.replaceAll((key, view) -> key.nodeId().equals(nodeId) && view.epoch() < epoch ? view.stale() : view);
  }

  private RegionView atEpoch(RegionKey key, long epoch, RegionSpec spec) {
    RegionView view = views.get(key);
    return view != null && view.epoch() == epoch ? view : RegionView.empty(key.nodeId(), epoch, spec);
  }

  private void stale(RegionKey key, String backend, long epoch, long currentEpoch, Applying at) {
    staleRegistrations.add(
        new StaleRegistration(at.eventId(), key.nodeId(), key.regionId(), backend, epoch, currentEpoch));
    staleKeys.add(key);
  }

  Optional<RegionView> live(String nodeId, String regionId, long currentEpoch) {
    RegionView view = views.get(new RegionKey(nodeId, regionId));
    return Optional.ofNullable(view)
        .filter(v -> v.status() == RegionStatus.LIVE && v.epoch() == currentEpoch);
  }

  boolean isStale(String nodeId, String regionId) {
    var key = new RegionKey(nodeId, regionId);
    RegionView view = views.get(key);
    return view == null ? staleKeys.contains(key) : view.status() == RegionStatus.STALE;
  }

  List<RegionView> all() {
    return List.copyOf(views.values());
  }

  int count(RegionStatus status) {
    return (int) views.values().stream().filter(v -> v.status() == status).count();
  }

  Recent<StaleRegistration> staleRegistrations() {
    return staleRegistrations;
  }

  Recent<RegistrationFailed> failures() {
    return failures;
  }

  /** Every region a stale registration named, sorted. */
  List<RegionKey> staleKeys() {
    return staleKeys.stream().sorted().toList();
  }

  SortedMap<String, Long> failuresByReason() {
    return new TreeMap<>(failuresByReason);
  }

  SortedMap<RegionKey, RegionView> viewsImage() {
    return new TreeMap<>(views);
  }

  /** Restores the views, the histories, the stale keys and the counts by reason. */
  void restore(SortedMap<RegionKey, RegionView> image, Recent.Kept<StaleRegistration> stale, List<RegionKey> keys,
      Recent.Kept<RegistrationFailed> failed, SortedMap<String, Long> byReason) {
    views.putAll(image);
    staleRegistrations.restore(stale);
    staleKeys.addAll(keys);
    failures.restore(failed);
    failuresByReason.putAll(byReason);
  }
}
