package io.kvfleet.control.kafka;

import io.kvfleet.events.Topics;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;

/**
 * The ACLs of a secured fleet Kafka, per {@link KafkaRole}, worked out from what each client does:
 * every role may describe the three fleet topics (metadata, end offsets, the topic check at start);
 * idempotent producers need only WRITE on a topic (no cluster operation since Kafka 3.0); only the
 * coordinators use a consumer group of their own naming ({@code --group}), and {@code tail} one
 * named {@code kvfleet-tail-<random>}. Everything else is denied (no ACL, no access).
 */
public final class FleetAcls {
  /** The prefix of the consumer groups {@code tail} uses. */
  public static final String TAIL_GROUPS = "kvfleet-tail-";
  private static final List<String> FLEET_TOPICS = List.of(Topics.NODES, Topics.TRANSFERS, Topics.DEADLETTER);

  private FleetAcls() {}

  /** Every ACL of {@code role} (none for the admin: it is a super user). */
  public static List<AclBinding> of(KafkaRole role) {
    var acls = new ArrayList<AclBinding>();
    FLEET_TOPICS.forEach(t -> acls.add(topic(role, t, AclOperation.DESCRIBE)));
    switch (role) {
      case ADMIN -> acls.clear();
      case COORDINATOR -> {
        for (String t : FLEET_TOPICS) {
          acls.add(topic(role, t, AclOperation.READ));
          acls.add(topic(role, t, AclOperation.WRITE));
        }
        acls.add(group(role, "*", PatternType.LITERAL));
      }
      case NODE -> {
        acls.add(topic(role, Topics.NODES, AclOperation.READ)); // its own loss
        acls.add(topic(role, Topics.NODES, AclOperation.WRITE));
        acls.add(topic(role, Topics.TRANSFERS, AclOperation.READ)); // its orders: the dispatches on its key's partition
        acls.add(topic(role, Topics.TRANSFERS, AclOperation.WRITE));
      }
      case ROUTER -> acls.add(topic(role, Topics.TRANSFERS, AclOperation.WRITE));
      case OBSERVER -> {
        FLEET_TOPICS.forEach(t -> acls.add(topic(role, t, AclOperation.READ)));
        acls.add(group(role, TAIL_GROUPS, PatternType.PREFIXED));
      }
    }
    return List.copyOf(acls);
  }

  /** Every role's ACLs. */
  public static List<AclBinding> all() {
    var acls = new ArrayList<AclBinding>();
    for (KafkaRole role : KafkaRole.values()) {
      acls.addAll(of(role));
    }
    return List.copyOf(acls);
  }

  private static AclBinding topic(KafkaRole role, String topic, AclOperation operation) {
    return new AclBinding(new ResourcePattern(ResourceType.TOPIC, topic, PatternType.LITERAL),
        new AccessControlEntry(role.principal(), "*", operation, AclPermissionType.ALLOW));
  }

  private static AclBinding group(KafkaRole role, String name, PatternType pattern) {
    return new AclBinding(new ResourcePattern(ResourceType.GROUP, name, pattern),
        new AccessControlEntry(role.principal(), "*", AclOperation.READ, AclPermissionType.ALLOW));
  }
}
