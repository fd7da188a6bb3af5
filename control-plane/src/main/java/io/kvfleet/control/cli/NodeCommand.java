package io.kvfleet.control.cli;

import io.kvfleet.control.StartupMarks;
import io.kvfleet.control.agent.AgentConfig;
import io.kvfleet.control.dataplane.EngineDataPlane;
import io.kvfleet.control.agent.NodeAgent;
import io.kvfleet.control.agent.PriorEpoch;
import io.kvfleet.control.agent.RegistrationPolicy;
import io.kvfleet.control.agent.TokenFile;
import io.kvfleet.control.kafka.EventPublisher;
import io.kvfleet.events.Topics;
import io.kvfleet.events.trust.Verifier;
import io.vertx.core.Vertx;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code kvfleet node}: one node's agent, with its engine and local registration API. */
@Command(name = "node", mixinStandardHelpOptions = true,
    description = "Run a node agent: join the fleet with a new epoch, serve the local registration API "
        + "on loopback, heartbeat, and run the transfers the coordinator dispatches.")
final class NodeCommand implements Callable<Integer> {
  @Mixin ClusterOptions cluster;

  @Mixin TrustOptions trust;

  @Option(names = "--id", required = true, description = "Node id, e.g. prefill-0")
  String nodeId;

  @Option(names = "--http-port", defaultValue = "0", description = "Local API port on 127.0.0.1 (0: a free one)")
  int httpPort;

  @Option(names = "--api-token-file", description = "File with the local API's bearer token, readable only by this"
      + " user (mode 0600); created with a new token when absent (default: ~/.kvfleet/node-<id>.api-token)")
  Path apiTokenFile;

  @Option(names = "--ucx-net-devices", description = "Network devices UCX may use and listen on (UCX_NET_DEVICES,"
      + " e.g. mlx5_0:1,eth1); default: the loopback device when the cluster host is loopback, else UCX's own (every device)")
  String ucxNetDevices;

  @Option(names = "--ucx-allow-tcp", defaultValue = "${env:KVFLEET_UCX_ALLOW_TCP:-false}", description = "Let UCX use"
      + " tcp (needed for UCX between hosts without RDMA). UCX 1.13 serves RMA over tcp at ANY address of this process"
      + " to whoever reaches its port, so only where nobody but fleet members can (docs/SECURITY.md, F0)"
      + " (default: off, shared memory only; env KVFLEET_UCX_ALLOW_TCP)")
  boolean ucxAllowTcp;

  @Option(names = "--policy", defaultValue = "FALLBACK_STAGED",
      description = "When a component cannot be registered: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE})")
  RegistrationPolicy policy;

  @Option(names = "--heartbeat", defaultValue = "1s", description = "Heartbeat period; the lease is three (default: ${DEFAULT-VALUE})")
  Duration heartbeat;

  @Override
  public Integer call() throws Exception {
    var signing = trust.signing("node " + nodeId, io.kvfleet.events.trust.Role.NODE, nodeId);
    if (!signing.verifies()) {
      System.err.println("kvfleet: WARNING: orders are NOT authenticated (node " + nodeId + " has no --trust: it"
          + " runs any order the log says was dispatched to it, whoever wrote it to Kafka; see docs/SECURITY.md)");
    }
    UcxTcpWarning.line(nodeId, ucxAllowTcp).ifPresent(System.err::println);
    Path tokenFile = apiTokenFile != null ? apiTokenFile : TokenFile.defaultPath(nodeId);
    var token = TokenFile.loadOrCreate(tokenFile);
    cluster.check();
    String devices = ucxNetDevices != null ? ucxNetDevices : DataDevices.forClusterHost(cluster.clusterHost);
    // Stopped now (Ctrl-C), it leaves without a word: say that it wrote nothing (until the agent deploys, it has not).
    var sayNothingWritten = new java.util.concurrent.atomic.AtomicBoolean(true); // not once a step failed, saying why
    var beforeJoin = new Thread(() -> {
      if (sayNothingWritten.get()) {
        System.err.println("kvfleet node: " + nodeId + " stopped while starting, before it joined: it wrote nothing"
            + " to the log");
      }
    });
    Runtime.getRuntime().addShutdownHook(beforeJoin);
    // The join, Kafka and the engine probe need nothing of one another: side by side, the slowest bounds the start.
    var steps = new StartupSteps();
    StartupMarks.mark("checked");
    // On a thread of its own from the first call: building the cluster manager loads and links most of its
    // classes before the join itself, which would hold the other steps back.
    var joining = steps.begin("cluster-join", () -> cluster.join().get(120, TimeUnit.SECONDS), Vertx::close);
    var publishing = steps.begin("kafka", () -> {
      cluster.ensureTopics();
      // Above every epoch the log holds for this node: the fleet ignores a join at or below its current epoch.
      long clock = AgentConfig.newEpoch();
      long began = StartupMarks.now();
      var prior = PriorEpoch.read(cluster.bootstrapServers, nodeId, Verifier.of(signing));
      StartupMarks.span("prior-epoch", began);
      prior.warning(nodeId, clock).ifPresent(System.err::println);
      return new EventPublisher(cluster.bootstrapServers, nodeId, prior.joinAt(nodeId, clock), Clock.systemUTC(),
          EventPublisher.DEFAULT_CAPACITY, signing.key()).warm(Topics.NODES, Topics.TRANSFERS);
    }, EventPublisher::close);
    var probing = steps.begin("engine-probe", () -> EngineDataPlane.open(nodeId, devices, ucxAllowTcp), EngineDataPlane::close);
    EventPublisher events;
    EngineDataPlane dataPlane;
    Vertx vertx;
    try {
      events = publishing.await(90); // Kafka unreachable fails with its message, not after the join
      dataPlane = probing.await(60);
      vertx = joining.await(130);
    } catch (Exception e) {
      sayNothingWritten.set(false);
      steps.abandon();
      throw e;
    }
    try {
      Runtime.getRuntime().removeShutdownHook(beforeJoin);
    } catch (IllegalStateException stopping) {
      return 130; // stopped as the steps ended: the hook says it wrote nothing, which holds
    }
    StartupMarks.mark("steps-done");
    long epoch = events.epoch();
    var config = new AgentConfig(nodeId, epoch, cluster.clusterHost, List.of(), policy, heartbeat, httpPort, signing);
    var agent = new NodeAgent(config, dataPlane, events).withApiToken(token);
    var registry = io.kvfleet.control.ops.OpsMetrics.registry();
    io.kvfleet.control.ops.OpsMetrics.orderRefusals(registry, nodeId, agent.refusedOrders());
    agent.withOutcomeWatch(new io.kvfleet.control.ops.AgentOutcomes(registry, nodeId));
    agent.withRoutes(io.kvfleet.control.ops.OpsMetrics.agentRoutes(registry, nodeId,
        events::waiting, events.capacity()));
    String deployment = vertx.deployVerticle(agent).toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS);
    StartupMarks.mark("deployed");
    // Before the ready line: a process told to stop the moment it is ready stops cleanly.
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      try {
        // The agent drains first: the transfers it runs may take NodeAgent.STOP_DRAIN to end.
        if (!agent.superseded().isComplete()) { // a superseded agent has said goodbye already
          System.out.println("node " + nodeId + " epoch " + agent.epoch() + " stopping: new orders fail PEER_LEFT,"
              + " the transfers it runs may take up to " + NodeAgent.STOP_DRAIN.toSeconds() + " s to end, then it"
              + " says goodbye");
        }
        vertx.undeploy(deployment).toCompletionStage().toCompletableFuture()
            .get(NodeAgent.STOP_DRAIN.toSeconds() + 10, TimeUnit.SECONDS);
        System.out.println("node " + nodeId + " epoch " + agent.epoch() + " stopped (its goodbye, peer.left, is in"
            + " the log unless Kafka was away)");
        vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
      } catch (Exception e) {
        System.err.println("node " + nodeId + ": unclean stop: " + e.getMessage());
      } finally {
        events.close();
        dataPlane.close();
      }
    }));
    agent.onRejoin((was, now) -> System.out.println("node " + nodeId + " epoch " + now + " joined again (epoch " + was
        + " was fenced: its lease lapsed or the fleet declared it lost; why is in the log); requests must name the new"
        + " epoch"));
    agent.superseded().onSuccess(other -> {
      System.err.println("node " + nodeId + " epoch " + agent.epoch() + ": another agent joined as " + nodeId + " (epoch "
          + other.epoch() + ", host " + other.host() + "); this one stopped serving and exits (two agents must not"
          + " share a node id)");
      new Thread(() -> System.exit(3), "kvfleet-superseded-exit").start(); // the shutdown hook needs the event loop
    });
    System.out.println("node " + nodeId + " epoch " + epoch + " joined; logs in " + Kvfleet.logFile());
    System.out.println("kvfleet-node-api-token-file=" + tokenFile.toAbsolutePath());
    System.out.println("kvfleet-node-api=http://127.0.0.1:" + agent.httpPort());
    Thread.currentThread().join();
    return 0;
  }
}
