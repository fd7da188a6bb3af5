package io.kvfleet.control.kafka;

import io.kvfleet.control.KvfleetException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.apache.kafka.common.Uuid;

/**
 * The KRaft controller quorum a broker belongs to: its own node id and the voters
 * ({@code id@host:port,...}, Kafka's {@code controller.quorum.voters}). Every member runs as a
 * combined broker and controller; a quorum of one is the single-node broker.
 *
 * @param nodeId this broker's node id, one of the voters
 * @param voters every member, in Kafka's notation
 * @param clusterId the cluster id every member is formatted with
 */
public record KraftQuorum(int nodeId, List<Voter> voters, String clusterId) {
  private static final Pattern VOTER = Pattern.compile("(\\d+)@([^:@,]+):(\\d{1,5})");

  /** One controller of the quorum. */
  public record Voter(int id, String host, int port) {
    @Override
    public String toString() {
      return id + "@" + host + ":" + port;
    }
  }

  public KraftQuorum {
    voters = List.copyOf(voters);
    if (voters.stream().noneMatch(v -> v.id() == nodeId)) {
      throw KvfleetException.badInput("node id " + nodeId + " is not one of the controller quorum's voters "
          + votersText(voters));
    }
    if (voters.stream().map(Voter::id).distinct().count() != voters.size()) {
      throw KvfleetException.badInput("the controller quorum names a node id twice: " + votersText(voters));
    }
  }

  /** A quorum of one: the single-node broker, node id 1, controller on {@code controllerPort}. */
  static KraftQuorum single(int controllerPort) {
    return new KraftQuorum(1, List.of(new Voter(1, "127.0.0.1", controllerPort)), Uuid.randomUuid().toString());
  }

  /**
   * Parses {@code id@host:port,...}; the cluster id is {@code clusterId} if given, otherwise derived
   * from the voters (in order of id, so members given them in another order still agree), so the
   * members of one quorum agree on it without being told.
   */
  public static KraftQuorum parse(int nodeId, String voters, String clusterId) {
    var parsed = new ArrayList<Voter>();
    for (String part : voters.split(",")) {
      var m = VOTER.matcher(part.trim());
      if (!m.matches()) {
        throw KvfleetException.badInput("controller quorum entry '" + part.trim() + "' is not id@host:port");
      }
      int port = Integer.parseInt(m.group(3));
      if (port < 1 || port > 65_535) {
        throw KvfleetException.badInput("controller quorum entry '" + part.trim() + "' has no valid port");
      }
      parsed.add(new Voter(Integer.parseInt(m.group(1)), m.group(2), port));
    }
    var byId = parsed.stream().sorted(java.util.Comparator.comparingInt(Voter::id)).toList();
    return new KraftQuorum(nodeId, parsed, clusterId == null ? derivedClusterId(votersText(byId)) : clusterId);
  }

  /** This member's own controller. */
  public Voter self() {
    return voters.stream().filter(v -> v.id() == nodeId).findFirst().orElseThrow();
  }

  /** How many brokers the quorum has. */
  public int size() {
    return voters.size();
  }

  /** Kafka's {@code controller.quorum.voters} value. */
  public String votersText() {
    return votersText(voters);
  }

  /** The replication factor for internal and fleet topics: up to three copies. */
  public short replicationFactor() {
    return (short) Math.min(3, voters.size());
  }

  /** {@code min.insync.replicas}: one less than the copies, so one broker may be down. */
  public int minInSyncReplicas() {
    return Math.max(1, replicationFactor() - 1);
  }

  private static String votersText(List<Voter> voters) {
    return String.join(",", voters.stream().map(Voter::toString).toList());
  }

  private static String derivedClusterId(String voters) {
    try {
      var digest = ByteBuffer.wrap(MessageDigest.getInstance("SHA-256").digest(voters.getBytes(StandardCharsets.UTF_8)));
      return new Uuid(digest.getLong(), digest.getLong()).toString();
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("the JDK has no SHA-256", e);
    }
  }
}
