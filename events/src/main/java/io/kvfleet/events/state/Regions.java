package io.kvfleet.events.state;

import io.kvfleet.events.ReasonCodes;
import io.kvfleet.events.RegionDeregistered;
import io.kvfleet.events.RegionRegistered;
import io.kvfleet.events.RegionSpec;
import io.kvfleet.events.RegistrationFailed;
import java.util.List;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Pattern;

/** The region part of the fold: live and stale regions, registration failures and their counts by reason. */
final class Regions {
  /**
   * How many regions of one node, named only by stale registrations, a forgetting fold remembers as
   * stale: past them it forgets that node's first in key order (a choice that needs no history, so
   * a fold restored from a snapshot forgets the same ones), and such a region is then unknown rather
   * than stale. A node that names many pushes out only its own.
   */
  static final int KEPT_STALE_KEYS_PER_NODE = 1_000;
  /** The same over all nodes (many node ids come only from an unsigned fleet's writers): the first in key order goes. */
  static final int KEPT_STALE_KEYS = 10_000;
  /**
   * How many failure reasons that are not this build's codes a forgetting fold counts by name (this
   * build's are always counted by name); the rest under {@link #OTHER_REASONS}.
   */
  static final int KEPT_REASONS = 100;
  /** Where a forgetting fold counts failures whose reason is no reason code, or an unknown one past {@link #KEPT_REASONS}. */
  static final String OTHER_REASONS = "(other reasons)";
  private static final Pattern REASON_CODE = Pattern.compile("[A-Z0-9_]{1,64}");

  private final SortedMap<RegionKey, RegionView> views = new TreeMap<>();
  private final Recent<StaleRegistration> staleRegistrations;
  private final TreeSet<RegionKey> staleKeys = new TreeSet<>(); // the keys stale registrations named
  private final Recent<RegistrationFailed> failures;
  private final SortedMap<String, Long> failuresByReason = new TreeMap<>();
  /** Whether this fold bounds what a writer can make it hold (a coordinator's), or keeps everything (a replay's). */
  private final boolean forgetting;

  /**
   * Regions that remember the last {@code history} stale registrations and failures (and count all);
   * with a bounded history, what writers name is bounded too: a node, or anyone in an unsigned fleet,
   * naming ever new reasons or stale regions grew a coordinator's memory and snapshots without end.
   */
  Regions(int history) {
    this.staleRegistrations = new Recent<>(history);
    this.failures = new Recent<>(history);
    this.forgetting = history != Integer.MAX_VALUE;
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
    failuresByReason.merge(countedReason(e.reason()), 1L, Long::sum);
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
    if (!staleKeys.add(key) || !forgetting) {
      return;
    }
    RegionKey first = null;
    int ofNode = 0;
    for (RegionKey k : staleKeys.tailSet(new RegionKey(key.nodeId(), ""), true)) {
      if (!k.nodeId().equals(key.nodeId())) {
        break;
      }
      first = first == null ? k : first;
      ofNode++;
    }
    if (ofNode > KEPT_STALE_KEYS_PER_NODE) {
      staleKeys.remove(first);
    }
    if (staleKeys.size() > KEPT_STALE_KEYS) {
      staleKeys.pollFirst();
    }
  }

  private String countedReason(String reason) {
    if (!forgetting || ReasonCodes.isKnown(reason) || failuresByReason.containsKey(reason)) {
      return reason;
    }
    long unknown = failuresByReason.keySet().stream()
        .filter(r -> !ReasonCodes.isKnown(r) && !r.equals(OTHER_REASONS)).count();
    return REASON_CODE.matcher(reason).matches() && unknown < KEPT_REASONS ? reason : OTHER_REASONS;
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

  /** Every region a stale registration named (in a forgetting fold, within the bounds above), sorted. */
  List<RegionKey> staleKeys() {
    return List.copyOf(staleKeys);
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
