package io.kvfleet.control.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kvfleet.control.KvfleetException;
import org.junit.jupiter.api.Test;

class KraftQuorumTest {
  private static final String THREE = "1@127.0.0.1:19091,2@127.0.0.1:19093,3@127.0.0.1:19095";

  @Test
  void membersOfOneQuorumDeriveTheSameClusterId() {
    var one = KraftQuorum.parse(1, THREE, null);
    var three = KraftQuorum.parse(3, " 1@127.0.0.1:19091, 2@127.0.0.1:19093,3@127.0.0.1:19095", null);
    assertThat(one.clusterId()).isEqualTo(three.clusterId());
    assertThat(KraftQuorum.parse(1, "1@127.0.0.1:29091", null).clusterId()).isNotEqualTo(one.clusterId());
    assertThat(three.self().port()).isEqualTo(19095);
    assertThat(KraftQuorum.parse(2, "3@127.0.0.1:19095,1@127.0.0.1:19091,2@127.0.0.1:19093", null).clusterId())
        .as("the same voters in another order").isEqualTo(one.clusterId());
  }

  @Test
  void aClusterOfThreeKeepsThreeCopiesAndNeedsTwo() {
    var quorum = KraftQuorum.parse(2, THREE, "given-id");
    assertThat(quorum.replicationFactor()).isEqualTo((short) 3);
    assertThat(quorum.minInSyncReplicas()).isEqualTo(2);
    assertThat(quorum.clusterId()).isEqualTo("given-id");
    assertThat(KraftQuorum.single(19091).minInSyncReplicas()).isEqualTo(1);
  }

  @Test
  void rejectsANodeIdOutsideTheQuorum() {
    assertThatThrownBy(() -> KraftQuorum.parse(4, THREE, null)).isInstanceOf(KvfleetException.class)
        .hasMessageContaining("node id 4 is not one of the controller quorum's voters");
  }

  @Test
  void rejectsMalformedAndRepeatedVoters() {
    assertThatThrownBy(() -> KraftQuorum.parse(1, "1@127.0.0.1", null)).isInstanceOf(KvfleetException.class)
        .hasMessageContaining("'1@127.0.0.1' is not id@host:port");
    assertThatThrownBy(() -> KraftQuorum.parse(1, "1@h:1,1@h:2", null)).isInstanceOf(KvfleetException.class)
        .hasMessageContaining("names a node id twice");
    assertThatThrownBy(() -> KraftQuorum.parse(1, "1@h:70000", null)).isInstanceOf(KvfleetException.class)
        .hasMessageContaining("no valid port");
  }
}
