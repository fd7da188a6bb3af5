package io.kvfleet.engine;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The backend contract on the libc-only host backend. */
class HostBackendTest extends BackendContract {
  @Override
  String backend() {
    return "host";
  }

  // Here, not in the contract: giving up a UCX TCP batch mid-flight and then closing the engine can
  // crash UCX 1.13 (its flush of the cancelled put times out, then the worker is destroyed under it).
  // The reason is the engine's, not the backend's, so one backend shows it.
  @Test
  void anAbandonedBatchFailsLeaseUnprovenAndItsPeerIsNotUsedAgain() {
    PendingTransfer pending = peer.post(Direction.WRITE, new TransferBatch().add(sourceRegion, 0, remote, 0, PAGE));
    assertThat(pending.abandon("the lease lapsed")).isInstanceOfSatisfying(TransferResult.Failed.class, failed -> {
      assertThat(failed.reason()).isEqualTo(TransferFailure.LEASE_UNPROVEN);
      assertThat(failed.detail()).isEqualTo("the lease lapsed");
    });
    assertThat(peer.isUsable()).isFalse();
  }
}
