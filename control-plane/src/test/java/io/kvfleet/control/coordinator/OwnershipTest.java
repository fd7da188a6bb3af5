package io.kvfleet.control.coordinator;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Which transfers a coordinator decides for, alone and in a group. */
class OwnershipTest {
  @Test
  void aGroupMemberOwnsNothingBeforeKafkaTellsItThePartitions() {
    var none = Ownership.none();

    assertThat(none.owns("prefill-0")).isFalse();
    assertThat(none.holds(0, "prefill-0")).isFalse();
    assertThat(none.ownsPartition(0)).isFalse();
    assertThat(none.owned()).isEmpty();
  }

  @Test
  void aGroupMemberOwnsANodeOnceItHasReadItsPartitionToTheEndItWasAssigned() {
    var group = Ownership.group(3);
    int partition = Ownership.partitionOf("prefill-0", 3);

    assertThat(group.assigned(partition, 2)).isFalse();
    assertThat(group.owns("prefill-0")).isFalse();
    assertThat(group.advance(partition, 1)).isTrue();
    assertThat(group.owns("prefill-0")).isTrue();
    group.revoked(partition);
    assertThat(group.owns("prefill-0")).isFalse();
  }

  @Test
  void aLoneCoordinatorOwnsEveryNode() {
    assertThat(Ownership.whole().owns("prefill-0")).isTrue();
    assertThat(Ownership.whole(3).owns("decode-7")).isTrue();
  }
}
