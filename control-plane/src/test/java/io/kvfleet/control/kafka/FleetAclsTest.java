package io.kvfleet.control.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import io.kvfleet.events.Topics;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.resource.ResourceType;
import org.junit.jupiter.api.Test;

/** Each role gets what its clients do and nothing more. */
class FleetAclsTest {
  private static final List<String> FLEET_TOPICS = List.of(Topics.NODES, Topics.TRANSFERS, Topics.DEADLETTER);

  @Test
  void aRouterMayWriteTransfersAndNothingElse() {
    assertThat(operations(KafkaRole.ROUTER, Topics.TRANSFERS)).containsExactlyInAnyOrder(AclOperation.DESCRIBE,
        AclOperation.WRITE);
    assertThat(operations(KafkaRole.ROUTER, Topics.NODES)).containsExactly(AclOperation.DESCRIBE);
    assertThat(operations(KafkaRole.ROUTER, Topics.DEADLETTER)).containsExactly(AclOperation.DESCRIBE);
    assertThat(groups(KafkaRole.ROUTER)).isEmpty();
  }

  @Test
  void aNodeWritesAndReadsBothTopicsButNeverTheDeadLetters() {
    assertThat(operations(KafkaRole.NODE, Topics.NODES)).containsExactlyInAnyOrder(AclOperation.DESCRIBE,
        AclOperation.READ, AclOperation.WRITE);
    assertThat(operations(KafkaRole.NODE, Topics.TRANSFERS)).containsExactlyInAnyOrder(AclOperation.DESCRIBE,
        AclOperation.READ, AclOperation.WRITE);
    assertThat(operations(KafkaRole.NODE, Topics.DEADLETTER)).containsExactly(AclOperation.DESCRIBE);
    assertThat(groups(KafkaRole.NODE)).isEmpty();
  }

  @Test
  void aCoordinatorReadsAndWritesEveryFleetTopicAndJoinsItsGroup() {
    for (String topic : FLEET_TOPICS) {
      assertThat(operations(KafkaRole.COORDINATOR, topic)).as(topic).containsExactlyInAnyOrder(AclOperation.DESCRIBE,
          AclOperation.READ, AclOperation.WRITE);
    }
    assertThat(groups(KafkaRole.COORDINATOR)).containsExactly("*");
  }

  @Test
  void anObserverOnlyReads() {
    for (String topic : FLEET_TOPICS) {
      assertThat(operations(KafkaRole.OBSERVER, topic)).as(topic).containsExactlyInAnyOrder(AclOperation.DESCRIBE,
          AclOperation.READ);
    }
    assertThat(groups(KafkaRole.OBSERVER)).containsExactly(FleetAcls.TAIL_GROUPS);
  }

  @Test
  void theAdminHasNoAclsBecauseItIsASuperUserAndNoRoleTouchesTheCluster() {
    assertThat(FleetAcls.of(KafkaRole.ADMIN)).isEmpty();
    assertThat(FleetAcls.all()).allSatisfy(acl -> {
      assertThat(acl.pattern().resourceType()).isIn(ResourceType.TOPIC, ResourceType.GROUP);
      assertThat(acl.entry().permissionType()).isEqualTo(AclPermissionType.ALLOW);
      assertThat(acl.entry().host()).isEqualTo("*");
    });
  }

  private static Set<AclOperation> operations(KafkaRole role, String topic) {
    return FleetAcls.of(role).stream()
        .filter(a -> a.pattern().resourceType() == ResourceType.TOPIC && a.pattern().name().equals(topic))
        .peek(a -> assertThat(a.entry().principal()).isEqualTo("User:" + role.user()))
        .map(a -> a.entry().operation()).collect(Collectors.toSet());
  }

  private static Set<String> groups(KafkaRole role) {
    return FleetAcls.of(role).stream().filter(a -> a.pattern().resourceType() == ResourceType.GROUP)
        .map(AclBinding::pattern).map(p -> p.name()).collect(Collectors.toSet());
  }
}
