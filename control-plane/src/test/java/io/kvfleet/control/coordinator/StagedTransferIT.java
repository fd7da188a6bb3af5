package io.kvfleet.control.coordinator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.kvfleet.control.agent.Component;
import io.kvfleet.control.dataplane.EngineDataPlane;
import io.kvfleet.control.agent.RegistrationPolicy;
import io.kvfleet.control.kafka.Await;
import io.kvfleet.control.testing.HostStaging;
import io.kvfleet.engine.Engine;
import io.kvfleet.engine.EngineConfig;
import io.kvfleet.events.ByteRange;
import io.kvfleet.events.FleetEvent;
import io.kvfleet.events.MemoryType;
import io.kvfleet.events.ReasonCodes;
import io.kvfleet.events.RegionKind;
import io.kvfleet.events.RegionRegistered;
import io.kvfleet.events.RegistrationDecision;
import io.kvfleet.events.RegistrationFailed;
import io.kvfleet.events.TransferCompleted;
import io.kvfleet.events.TransferFailed;
import io.kvfleet.events.TransferOp;
import io.kvfleet.events.TransferRequested;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * State tensors that ucx cannot register (VRAM on a UCX without CUDA, the field's failure) cross
 * the fleet by the staged path under policy FALLBACK_STAGED: real broker, coordinator, agents,
 * engines and ucx; the device copies are host copies ({@link HostStaging}), since this machine has
 * no GPU, and the paths the completions report say {@code hostcopy}, not {@code cuda}.
 */
class StagedTransferIT {
  private static final long TENSOR = 6L << 20; // two chunks of the staged path
  private static final long KV = 1L << 20;

  private final Arena arena = Arena.ofShared();
  private final Map<String, MemorySegment> memory = new HashMap<>();
  private Fleet fleet;

  @BeforeEach
  void startAHybridModelFleet() throws Exception {
    fleet = new Fleet();
    fleet.startCoordinator();
    // A long lease: a dead agent must be noticed by the transfer itself, not by its lease.
    startNode("prefill-0", Duration.ofSeconds(5));
    startNode("decode-0", Duration.ofSeconds(5));
    fleet.awaitState("state tensors staged on both nodes", Duration.ofSeconds(60), s ->
        staged(s, "prefill-0", "state_data-0") && staged(s, "decode-0", "state_data-1")
            && s.region("decode-0", "kv_data-0").isPresent());
  }

  @AfterEach
  void close() throws Exception {
    if (fleet != null) {
      fleet.close();
    }
    arena.close();
  }

  @Test
  void recordsTheFailureTheDecisionAndTheStagedRegistrationForEachStateTensor() {
    var about = fleet.log.envelopes().stream().map(e -> e.data())
        .filter(e -> e.subject().equals("state_data-0") || e instanceof RegistrationDecision)
        .filter(e -> nodeOf(e).equals("prefill-0")).toList();

    assertThat(about).filteredOn(e -> e instanceof RegistrationFailed f && f.backend().equals("ucx"))
        .isNotEmpty();
    assertThat(about).filteredOn(e -> e instanceof RegistrationDecision d && d.policy().equals("FALLBACK_STAGED"))
        .singleElement().satisfies(d -> assertThat(((RegistrationDecision) d).outcome()).contains("staged path"));
    assertThat(about).filteredOn(e -> e instanceof RegionRegistered r && r.backend().equals("staged"))
        .hasSize(1);
  }

  @Test
  void carriesAStateTensorFromVramToVramBetweenNodes() throws Exception {
    var request = request("t-vram", "state_data-0", "state_data-1", new ByteRange(0, 0, TENSOR));

    var done = (TransferCompleted) awaitEnd(request);

    assertThat(done.path()).startsWith("hostcopy/staged+ucx/");
    assertThat(done.bytes()).isEqualTo(TENSOR);
    assertThat(memory.get("decode-0/state_data-1").mismatch(memory.get("prefill-0/state_data-0"))).isEqualTo(-1);
    assertThat(fleet.state().violationsFrom(0)).isEmpty();
  }

  @Test
  void carriesHostKvIntoStagedVramAndStagedVramIntoHostKv() throws Exception {
    var intoVram = request("t-kv-to-vram", "kv_data-0", "state_data-1", new ByteRange(0, 4096, KV));
    var intoHost = request("t-vram-to-kv", "state_data-0", "kv_data-0", new ByteRange(TENSOR - KV, 0, KV));

    assertThat(awaitEnd(intoVram)).isInstanceOf(TransferCompleted.class);
    assertThat(awaitEnd(intoHost)).isInstanceOf(TransferCompleted.class);
    assertThat(memory.get("decode-0/state_data-1").asSlice(4096, KV).mismatch(memory.get("prefill-0/kv_data-0")))
        .isEqualTo(-1);
    assertThat(memory.get("decode-0/kv_data-0").mismatch(memory.get("prefill-0/state_data-0").asSlice(TENSOR - KV)))
        .isEqualTo(-1);
  }

  @Test
  void failsAStagedTransferWhoseDestinationAgentIsGoneInsteadOfHanging() throws Exception {
    fleet.agent("decode-0").crash();
    Thread.sleep(200); // the crash unregisters its EventBus handlers on its own event loop

    var done = awaitEnd(request("t-gone", "state_data-0", "state_data-1", new ByteRange(0, 0, TENSOR)));

    assertThat(done).isInstanceOfSatisfying(TransferFailed.class, f -> {
      assertThat(f.reason()).isEqualTo(ReasonCodes.TRANSPORT_ERROR);
      assertThat(f.detail()).contains("decode-0's agent did not land the chunk");
    });
  }

  private void startNode(String node, Duration heartbeat) throws Exception {
    var dataPlane = new EngineDataPlane(Engine.open(EngineConfig.defaults().withName(node)), new HostStaging());
    var kv = filled(dataPlane, node + "/kv_data-0", KV, node.hashCode());
    var s0 = filled(dataPlane, node + "/state_data-0", TENSOR, node.hashCode() + 1);
    var s1 = filled(dataPlane, node + "/state_data-1", TENSOR, node.hashCode() + 2);
    var kvData = new Component("kv_data", RegionKind.KV, MemoryType.DRAM, -1, List.of(kv.address()), List.of(KV),
        List.of(4096L));
    var stateData = new Component("state_data", RegionKind.STATE, MemoryType.VRAM, 0,
        List.of(s0.address(), s1.address()), List.of(TENSOR, TENSOR), List.of(4096L, 4096L));
    assumeTrue(dataPlane.capabilities().stream().anyMatch(c -> c.backend().equals("ucx") && c.available()),
        "SKIPPED: UCX is not loaded on this machine; the staged path sends through it");
    fleet.startAgent(node, 1, dataPlane, heartbeat, -1, List.of(kvData, stateData), RegistrationPolicy.FALLBACK_STAGED);
  }

  /** Memory of the node's engine: the agent registers no other address of its process. */
  private MemorySegment filled(EngineDataPlane dataPlane, String name, long length, long seed) {
    var segment = dataPlane.allocate(name, length);
    for (long i = 0; i < length; i += 8) {
      segment.set(ValueLayout.JAVA_LONG, i, (i + seed) * 0x9E3779B97F4A7C15L);
    }
    memory.put(name, segment);
    return segment;
  }

  private TransferRequested request(String id, String from, String to, ByteRange range) throws Exception {
    var request = new TransferRequested(id, "prefill-0", 1, from, "decode-0", 1, to, TransferOp.WRITE,
        List.of(range), System.currentTimeMillis() + 120_000, true);
    fleet.publishAs("router-" + id, 1, request); // one producer each: a sequence 1 seen twice is a redelivery
    return request;
  }

  private FleetEvent awaitEnd(TransferRequested request) throws InterruptedException {
    Await.until(request.transferId() + " ended", Duration.ofSeconds(90), () -> !ends(request).isEmpty());
    return ends(request).getFirst();
  }

  private List<FleetEvent> ends(TransferRequested request) {
    return fleet.events(request.transferId(), e -> e instanceof TransferCompleted || e instanceof TransferFailed
        || e.wireType().endsWith("rejected"));
  }

  private static boolean staged(io.kvfleet.events.state.FleetState state, String node, String region) {
    return state.region(node, region).map(r -> r.remoteKeys().containsKey("staged")).orElse(false);
  }

  private static String nodeOf(FleetEvent e) {
    return switch (e) {
      case RegistrationFailed f -> f.nodeId();
      case RegistrationDecision d -> d.nodeId();
      case RegionRegistered r -> r.nodeId();
      default -> "";
    };
  }
}
