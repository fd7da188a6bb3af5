package io.kvfleet.control.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import io.kvfleet.events.Topics;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.resource.ResourceType;
import org.junit.jupiter.api.Test;

/**
 * Red team (att): the integration of issue 15's orders (h15order: the agent reads its orders from its partition of
 * kvfleet.transfers, OrderLog) with issue 16's ACLs (h16kafka: FleetAcls, docker/secure/acls.sh, the table in
 * docs/SECURITY.md "Kafka") leaves the node role without READ on kvfleet.transfers. In a secured fleet (kafka
 * --secure, or compose) every agent's order consumer is refused (TopicAuthorizationException), so no order is ever
 * run and every transfer ends by its deadline: the secured shape moves no byte.
 */
class NodeReadsItsOrdersAclTest {
  @Test
  void aNodeMayReadTheTransfersTopicItsOrdersComeFrom() {
    assertThat(FleetAcls.of(KafkaRole.NODE)).as("the node role's ACLs").anySatisfy(acl -> {
      assertThat(acl.pattern().resourceType()).isEqualTo(ResourceType.TOPIC);
      assertThat(acl.pattern().name()).isEqualTo(Topics.TRANSFERS);
      assertThat(acl.entry().operation()).isEqualTo(AclOperation.READ);
    });
  }
}
