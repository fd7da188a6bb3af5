package io.kvfleet.engine;

import io.kvfleet.engine.TransferResult.Failed;
import io.kvfleet.engine.internal.Hex;
import io.kvfleet.engine.spi.TransferOps;
import java.util.ArrayList;
import java.util.List;

/**
 * Checks a batch before any byte moves (ownership, liveness, bounds) and translates it to the
 * backend's {@link TransferOps}. A range outside its region is a failure value, never a segfault.
 */
final class BatchCheck {
  private BatchCheck() {}

  /**
   * A failure, or null when {@code batch.ops} is filled and {@code holds} lists its registrations,
   * each held (so it cannot be deregistered) until the caller releases it. On failure nothing is
   * held.
   */
  static Failed check(Peer peer, TransferBatch batch, List<Registration> holds) {
    TransferBatch.Prepared prepared = batch.prepared;
    if (prepared != null && prepared.peer() == peer && prepared.version() == batch.version()
        && stillValid(peer, prepared, holds)) {
      return null; // batch.ops still holds the translation
    }
    batch.prepared = null;
    Failed failed = checkEveryOp(peer, batch, holds);
    if (failed == null) {
      batch.prepared = new TransferBatch.Prepared(peer, batch.version(),
          holds.toArray(Registration[]::new), distinctRemotes(batch));
    }
    return failed;
  }

  /**
   * Whether a prepared batch's regions are all still live and ours (its ranges cannot have
   * changed); holds them when so. When not, the full check finds and names the failing op.
   */
  private static boolean stillValid(Peer peer, TransferBatch.Prepared prepared,
      List<Registration> holds) {
    for (Registration local : prepared.locals()) {
      local.hold(); // before the liveness check: see Registration.end
      holds.add(local);
    }
    for (Registration local : prepared.locals()) {
      for (RemoteRegion remote : prepared.remotes()) {
        if (checkOwnership(peer, local, remote, -1) != null) {
          holds.forEach(Registration::release);
          holds.clear();
          return false;
        }
      }
    }
    return true;
  }

  private static RemoteRegion[] distinctRemotes(TransferBatch batch) {
    List<RemoteRegion> remotes = new ArrayList<>(2);
    for (int i = 0; i < batch.size(); i++) {
      if (!remotes.contains(batch.remote(i))) {
        remotes.add(batch.remote(i));
      }
    }
    return remotes.toArray(RemoteRegion[]::new);
  }

  private static Failed checkEveryOp(Peer peer, TransferBatch batch, List<Registration> holds) {
    TransferOps ops = batch.ops;
    ops.clear();
    Registration previous = null;
    RemoteRegion previousRemote = null;
    for (int i = 0; i < batch.size(); i++) {
      Registration local = batch.local(i);
      RemoteRegion remote = batch.remote(i);
      long length = batch.length(i);
      long localOffset = batch.localOffset(i);
      long remoteOffset = batch.remoteOffset(i);
      Failed failed = null;
      if (local != previous || remote != previousRemote) { // a page run shares its regions
        if (!holds.contains(local)) {
          local.hold(); // before the liveness check: see Registration.end
          holds.add(local);
        }
        failed = checkOwnership(peer, local, remote, i);
        previous = local;
        previousRemote = remote;
      }
      if (failed == null) {
        failed = checkBounds(peer, local, localOffset, remote, remoteOffset, length, i);
      }
      if (failed != null) {
        ops.clear();
        holds.forEach(Registration::release);
        holds.clear();
        return failed;
      }
      ops.add(local.region, local.address() + localOffset, remote.remote,
          remote.address() + remoteOffset, length);
    }
    return null;
  }

  static List<Registration> newHolds() {
    return new ArrayList<>(2);
  }

  private static Failed checkOwnership(Peer peer, Registration local, RemoteRegion remote, int i) {
    if (local.engine() != peer.engine()) {
      return unknown(peer, i, "local region " + local.describe() + " belongs to another engine");
    }
    if (!local.isLive()) {
      return unknown(peer, i, "local region " + local.describe() + " is deregistered");
    }
    if (!local.backend().equals(peer.backend())) {
      return unknown(peer, i, "local region " + local.describe() + " is not registered with "
          + peer.backend() + "; register it there too");
    }
    if (remote.peer() != peer) {
      return unknown(peer, i, "remote region " + remote.key() + " was attached to another peer");
    }
    if (!remote.isOpen()) {
      return unknown(peer, i, "remote region " + remote.key() + " is closed");
    }
    return null;
  }

  private static Failed checkBounds(Peer peer, Registration local, long localOffset,
      RemoteRegion remote, long remoteOffset, long length, int i) {
    if (length <= 0) {
      return outOfBounds(peer, i, "length " + length + " is not positive");
    }
    if (localOffset < 0 || localOffset > local.length() - length) {
      return outOfBounds(peer, i, "local range offset " + localOffset + " length " + length
          + " is outside " + local.describe());
    }
    if (remoteOffset < 0 || remoteOffset > remote.length() - length) {
      return outOfBounds(peer, i, "remote range offset " + remoteOffset + " length " + length
          + " is outside the peer's region at " + Hex.range(remote.address(), remote.length()));
    }
    return null;
  }

  private static Failed unknown(Peer peer, int i, String detail) {
    return Failed.of(TransferFailure.UNKNOWN_REGION, "op " + i + ": " + detail, i, peer.path());
  }

  private static Failed outOfBounds(Peer peer, int i, String detail) {
    return Failed.of(TransferFailure.OUT_OF_BOUNDS, "op " + i + ": " + detail, i, peer.path());
  }
}
