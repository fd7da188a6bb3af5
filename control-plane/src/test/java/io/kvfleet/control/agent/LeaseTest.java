package io.kvfleet.control.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class LeaseTest {
  private final AtomicLong clock = new AtomicLong(1_000_000_000L);
  private final Lease lease = new Lease(Duration.ofSeconds(3), Duration.ofSeconds(1), clock::get);

  private void advance(Duration d) {
    clock.addAndGet(d.toNanos());
  }

  @Test
  void provesNothingBeforeAHeartbeatIsAcknowledged() {
    long sent = lease.now();
    assertThat(lease.current()).isFalse();
    assertThat(lease.lapsed()).isFalse();
    advance(Duration.ofMillis(40));
    lease.acknowledged(sent);
    assertThat(lease.current()).isTrue();
  }

  @Test
  void holdsFromTheSendTimeForTheLeaseLessOneHeartbeat() {
    long sent = lease.now();
    advance(Duration.ofMillis(1500)); // a slow acknowledgement does not lengthen the proof
    lease.acknowledged(sent);
    advance(Duration.ofMillis(499));
    assertThat(lease.current()).isTrue();
    advance(Duration.ofMillis(1));
    assertThat(lease.current()).isFalse();
    assertThat(lease.lapsed()).isTrue();
    assertThat(lease.lapsedFor()).isEqualTo(Duration.ZERO);
    advance(Duration.ofSeconds(8)); // a SIGSTOP: the monotonic clock went on
    assertThat(lease.lapsedFor()).isEqualTo(Duration.ofSeconds(8));
  }

  @Test
  void aRevokedLeaseStopsWorkAtOnceAndNoAcknowledgementBringsItBack() {
    lease.acknowledged(lease.now());
    assertThat(lease.current()).isTrue();
    lease.revoke(); // the agent read its own loss while its proof still held
    assertThat(lease.current()).isFalse();
    lease.acknowledged(lease.now());
    assertThat(lease.current()).isFalse();
  }

  @Test
  void anOlderAcknowledgementArrivingLateNeverShortensTheProof() {
    long first = lease.now();
    advance(Duration.ofSeconds(1));
    long second = lease.now();
    lease.acknowledged(second);
    lease.acknowledged(first);
    advance(Duration.ofMillis(1900));
    assertThat(lease.current()).isTrue();
  }

  @Test
  void aLapsedProofNeverComesBackWhateverIsAcknowledgedLater() {
    lease.acknowledged(lease.now());
    advance(Duration.ofSeconds(5)); // Kafka away, or the process paused
    assertThat(lease.lapsed()).isTrue();
    long afterTheOutage = lease.now();
    lease.acknowledged(afterTheOutage); // a heartbeat sent after the fleet may have declared the epoch lost
    assertThat(lease.current()).isFalse();
    assertThat(lease.lapsed()).isTrue();
  }

  @Test
  void aMomentPastTheMarginIsStillInsideTheLeaseUntilItsEnd() {
    long sent = lease.now();
    lease.acknowledged(sent);
    advance(Duration.ofMillis(2500)); // no work may start now, but the fleet cannot have declared the node lost
    assertThat(lease.current()).isFalse();
    assertThat(lease.inside(lease.now())).isTrue();
    assertThat(lease.inside(sent + Duration.ofMillis(2999).toNanos())).isTrue();
    assertThat(lease.inside(sent + Duration.ofSeconds(3).toNanos())).as("the lease's end itself").isFalse();
  }

  @Test
  void nothingIsInsideALeaseNeverProven() {
    assertThat(lease.inside(lease.now())).isFalse();
  }

  @Test
  void nothingIsInsideARevokedLeaseNotEvenAMomentBeforeItsEnd() {
    long sent = lease.now();
    lease.acknowledged(sent);
    lease.revoke(); // the agent says goodbye or joins again next: the fleet may fail its transfers before the end
    assertThat(lease.inside(sent)).isFalse();
  }

  @Test
  void nothingIsInsideALeaseThatLapsedAndWasAcknowledgedAfter() {
    long sent = lease.now();
    lease.acknowledged(sent);
    advance(Duration.ofMillis(2500)); // lapsed for starting work, not yet at its end
    lease.acknowledged(lease.now()); // this lapse is for good: the agent fences itself next
    assertThat(lease.inside(sent)).isFalse();
  }

  @Test
  void refusesAHeartbeatAsLongAsTheLease() {
    assertThatThrownBy(() -> new Lease(Duration.ofSeconds(1), Duration.ofSeconds(1)))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("must be shorter than the lease");
  }
}
