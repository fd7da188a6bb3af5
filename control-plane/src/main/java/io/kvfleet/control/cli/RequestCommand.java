package io.kvfleet.control.cli;

import io.kvfleet.control.KvfleetException;
import io.kvfleet.control.kafka.EventPublisher;
import io.kvfleet.control.kafka.EventTail;
import io.kvfleet.control.kafka.FleetTopics;
import io.kvfleet.control.replay.KafkaLog;
import io.kvfleet.control.replay.LogSource;
import io.kvfleet.control.replay.ReplayRunner;
import io.kvfleet.events.ByteRange;
import io.kvfleet.events.Topics;
import io.kvfleet.events.TransferCompleted;
import io.kvfleet.events.TransferOp;
import io.kvfleet.events.TransferRequested;
import io.kvfleet.events.replay.Replay;
import io.kvfleet.events.replay.ReplayOptions;
import io.kvfleet.events.state.PeerStatus;
import io.kvfleet.events.trust.FleetKey;
import io.kvfleet.events.trust.Role;
import io.kvfleet.events.trust.TrustException;
import io.kvfleet.events.trust.TrustFile;
import io.kvfleet.events.trust.Verifier;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code kvfleet request}: one transfer asked of a running fleet, as a router asks it: the nodes' current
 * epochs are read from the log, the request is published on the source node's partition, and the command
 * waits for the transfer's one ending and prints it.
 */
@Command(name = "request", mixinStandardHelpOptions = true,
    description = "Ask a running fleet for one transfer, as a router does: publish a transfer.requested between two"
        + " registered regions at their nodes' current epochs (read from the log), then wait for its one ending and"
        + " print it (a node the log has not alive is asked all the same, and the fleet's refusal printed). Exit 0 when"
        + " it completed, 1 when it ended otherwise, 2 when nothing was asked (bad input, a node that never joined).")
final class RequestCommand implements Callable<Integer> {
  @Option(names = "--bootstrap-servers", required = true, description = "The fleet's Kafka, e.g. 127.0.0.1:9092")
  String bootstrapServers;

  @Mixin KafkaConfigOption kafkaConfig;

  @Option(names = "--from", required = true, paramLabel = "NODE/REGION", description = "The source, e.g. prefill-0/kv_data-0")
  String from;

  @Option(names = "--to", required = true, paramLabel = "NODE/REGION", description = "The destination, e.g. decode-0/kv_data-0")
  String to;

  @Option(names = "--bytes", required = true, converter = SizeConverter.class,
      description = "How many bytes to move: 4096, 4k, 32m, 1g")
  long bytes;

  @Option(names = "--source-offset", defaultValue = "0", description = "Where in the source region (default: 0)")
  long sourceOffset;

  @Option(names = "--destination-offset", defaultValue = "0", description = "Where in the destination region (default: 0)")
  long destinationOffset;

  @Option(names = "--id", description = "The transfer id (default: cli- and a random number)")
  String id;

  @Option(names = "--deadline", defaultValue = "30s", description = "How long the fleet has (default: ${DEFAULT-VALUE})")
  Duration deadline;

  @Option(names = "--key", paramLabel = "FILE", description = "Sign the request with this router key ('kvfleet keys new"
      + " --role router'); a fleet that verifies dead-letters an unsigned one")
  Path key;

  @Option(names = "--trust", paramLabel = "FILE", description = "Check before asking that the trust file lets --key"
      + " ask for transfers (a router key writing as its id), and take as the fleet's answer only what it verifies")
  Path trust;

  @Option(names = "--no-wait", description = "Publish and return without waiting for the ending")
  boolean noWait;

  @Override
  public Integer call() throws Exception {
    try {
      kafkaConfig.apply(bootstrapServers);
      var source = Endpoint.parse("--from", from);
      var destination = Endpoint.parse("--to", to);
      if (bytes <= 0 || sourceOffset < 0 || destinationOffset < 0) {
        throw KvfleetException.badInput("--bytes must be positive, the offsets not negative");
      }
      if (deadline.isNegative() || deadline.isZero() || deadline.compareTo(Duration.ofDays(1)) > 0) {
        throw KvfleetException.badInput("--deadline must be more than 0 and at most a day, not " + deadline);
      }
      if (id != null && (id.isBlank() || id.length() > 256)) {
        throw KvfleetException.badInput("--id must be 1 to 256 characters, not blank");
      }
      Optional<FleetKey> signing = Optional.ofNullable(key).map(FleetKey::load);
      if (trust != null) {
        var fleetKey = signing.orElseThrow(() -> KvfleetException.badInput("--trust checks the key of --key: give it"));
        var trustFile = TrustFile.load(trust);
        TrustOptions.refuseUnlisted(fleetKey, key, trustFile, trust);
        TrustOptions.requireRights(fleetKey, key, trustFile, trust, "a router", Role.ROUTER, fleetKey.keyId());
      }
      FleetTopics.require(bootstrapServers);
      var fleet = new Replay(ReplayOptions.defaults());
      ReplayRunner.read(new LogSource.Kafka(bootstrapServers, List.of(Topics.NODES)), fleet::accept, false);
      long sourceEpoch = epochOf(fleet, source.node());
      long destinationEpoch = epochOf(fleet, destination.node());
      String transferId = id != null ? id : "cli-" + Long.toUnsignedString(new java.security.SecureRandom().nextLong(), 36);
      var request = new TransferRequested(transferId, source.node(), sourceEpoch, source.region(), destination.node(),
          destinationEpoch, destination.region(), TransferOp.WRITE,
          List.of(new ByteRange(sourceOffset, destinationOffset, bytes)),
          System.currentTimeMillis() + deadline.toMillis(), true);
      var watch = new RequestWatch(transferId, trust == null ? Verifier.off() : ReadTrustOptions.load(trust),
          System.out);
      Map<org.apache.kafka.common.TopicPartition, Long> ends;
      try (var log = KafkaLog.open(bootstrapServers, List.of(Topics.TRANSFERS, Topics.DEADLETTER), Map.of())) {
        ends = log.endOffsets();
      }
      try (var tail = EventTail.startAt(bootstrapServers, ends, r -> watch.read(r, System.currentTimeMillis()));
          var publisher = new EventPublisher(bootstrapServers, signing.map(FleetKey::keyId).orElse("router-cli"),
              System.currentTimeMillis(), Clock.systemUTC(), 16, signing)) {
        try {
          var sent = publisher.publishPlaced(request, transferId).get(30, TimeUnit.SECONDS);
          watch.sent(sent.envelope().id(), sent.partition(), sent.offset(), System.currentTimeMillis());
        } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
          throw KvfleetException.kafkaUnreachable(bootstrapServers, e instanceof java.util.concurrent.ExecutionException
              ? e.getCause() : e);
        }
        System.err.printf("kvfleet request: %s asked: %s@%d/%s -> %s@%d/%s, %,d B, deadline in %s%n", transferId,
            source.node(), sourceEpoch, source.region(), destination.node(), destinationEpoch, destination.region(),
            bytes, deadline);
        if (noWait) {
          return 0;
        }
        // The fleet ends every transfer: by its deadline at the latest, and a coordinator's time-out then.
        long giveUp = System.currentTimeMillis() + deadline.toMillis() + 30_000;
        while (System.currentTimeMillis() < giveUp) {
          var outcome = watch.outcome(System.currentTimeMillis());
          if (outcome.isPresent()) {
            return switch (outcome.get()) {
              case RequestWatch.Outcome.Ended e -> e.ending() instanceof TransferCompleted ? 0 : 1;
              case RequestWatch.Outcome.Refused r -> {
                System.err.println("kvfleet request: a coordinator refused the request unread, so no answer will"
                    + " come: " + r.reason());
                yield 1;
              }
            };
          }
          Thread.sleep(50);
        }
        throw new java.util.concurrent.TimeoutException();
      }
    } catch (KvfleetException | IllegalArgumentException | TrustException e) {
      System.err.println("kvfleet request: " + e.getMessage());
      return 2;
    } catch (java.util.concurrent.TimeoutException e) {
      System.err.println("kvfleet request: no ending within the deadline and 30 s more: is a coordinator running? (a"
          + " fleet that verifies signatures dead-letters an unsigned request unanswered: give --key)");
      return 1;
    }
  }

  /**
   * The epoch the log last knew {@code node} at. One that is not alive is asked for all the same, as a
   * router with that view would ask: the fleet's refusal is then in the log, counted like any other. A
   * node that never joined has no epoch to name.
   */
  private long epochOf(Replay fleet, String node) {
    var peer = fleet.state().peer(node).orElseThrow(() -> KvfleetException.badInput(node + " never joined the"
        + " fleet at " + bootstrapServers + ": no epoch to name (is the --from/--to node id right?)"));
    if (peer.status() != PeerStatus.ALIVE) {
      System.err.printf("kvfleet request: %s epoch %d is %s; asking all the same (the fleet will refuse it)%n", node,
          peer.epoch(), peer.status());
    }
    return peer.epoch();
  }

  /** {@code node/region}. */
  record Endpoint(String node, String region) {
    static Endpoint parse(String option, String text) {
      int slash = text.indexOf('/');
      if (slash <= 0 || slash == text.length() - 1) {
        throw KvfleetException.badInput(option + " " + text + ": give NODE/REGION, e.g. prefill-0/kv_data-0");
      }
      return new Endpoint(text.substring(0, slash), text.substring(slash + 1));
    }
  }
}
