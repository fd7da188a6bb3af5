package io.kvfleet.control.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.kvfleet.control.kafka.Await;
import io.kvfleet.control.kafka.Collected;
import io.kvfleet.control.kafka.EmbeddedKafka;
import io.kvfleet.control.kafka.EventTail;
import io.kvfleet.control.kafka.FleetTopics;
import io.kvfleet.engine.cuda.Cuda;
import io.kvfleet.events.BackendCapability;
import io.kvfleet.events.MemoryType;
import io.kvfleet.events.PeerJoined;
import io.kvfleet.events.RegistrationDecision;
import io.kvfleet.events.RegistrationFailed;
import io.kvfleet.events.Topics;
import io.kvfleet.events.state.FleetState;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The field's failure, made auditable: a hybrid-model node registers its state tensors as VRAM on
 * a machine that cannot take them. The diagnosis is read back from Kafka field by field, and the
 * node keeps serving KV transfers from host memory.
 */
class HybridModelRegistrationIT {
  private static EmbeddedKafka kafka;
  private static final Collected LOG = new Collected();
  private static EventTail tail;

  @BeforeAll
  static void runTheDemoFleet() throws Exception {
    kafka = EmbeddedKafka.startInTempDir();
    FleetTopics.ensure(kafka.bootstrapServers(), (short) 1);
    tail = EventTail.start(kafka.bootstrapServers(), Topics.ALL, LOG::add);
    try (var fleet = new DemoFleet(kafka.bootstrapServers())) {
      fleet.start(20);
      Await.until("KV transfers after the state tensors failed", Duration.ofSeconds(90),
          () -> FleetState.fold(LOG.envelopes()).counts().completed() >= 10);
    }
  }

  @AfterAll
  static void stop() {
    tail.close();
    kafka.close();
  }

  private static List<RegistrationFailed> failures(String backend) {
    return LOG.envelopes().stream().map(e -> e.data())
        .filter(e -> e instanceof RegistrationFailed f && f.backend().equals(backend))
        .map(e -> (RegistrationFailed) e).toList();
  }

  /** Skips, visibly, where libucp could not be loaded: the node then reports ucx unavailable, not its memory domains. */
  private static void assumeUcxLoaded() {
    var unloaded = failures("ucx").stream().filter(f -> f.reason().equals("BACKEND_UNAVAILABLE")).findFirst();
    assumeTrue(unloaded.isEmpty(), () -> "SKIPPED: UCX is not loaded on this machine: " + unloaded.get().detail());
  }

  @Test
  void eachStateTensorFailureNamesItsNodeEpochComponentIndexDeviceAddressAndLength() {
    var all = LOG.envelopes().stream().map(e -> e.data())
        .filter(e -> e instanceof RegistrationFailed).map(e -> (RegistrationFailed) e).toList();
    assertThat(all).isNotEmpty().allSatisfy(f -> {
      assertThat(f.nodeId()).isEqualTo(DemoFleet.PREFILL);
      assertThat(f.epoch()).isPositive();
      assertThat(f.region().component()).isEqualTo("state_data");
      assertThat(f.region().index()).isBetween(0, DemoBuffers.STATE_TENSORS - 2);
      assertThat(f.region().regionId()).isEqualTo("state_data-" + f.region().index());
      assertThat(f.region().memoryType()).isEqualTo(MemoryType.VRAM);
      assertThat(f.region().device()).isZero();
      assertThat(f.region().address()).isNotZero();
      assertThat(f.region().length()).isEqualTo(64 * DemoBuffers.STATE_ITEM);
      assertThat(f.region().itemSize()).isEqualTo(DemoBuffers.STATE_ITEM);
      assertThat(f.reason()).isNotBlank();
      assertThat(f.remediation()).isNotBlank();
    });
    assertThat(all).extracting(f -> f.region().index()).containsOnly(0, 1, 2);
  }

  @Test
  void theCudaFailureCarriesTheRealCudaErrorCodeAndString() {
    assumeTrue(Cuda.libraryError().isEmpty(), () -> "SKIPPED: no CUDA runtime here: " + Cuda.libraryError().get());
    assumeTrue(!Cuda.probe().usable(), "SKIPPED: a usable GPU is present; this checks the no-driver diagnosis");
    var cuda = failures("cuda");
    assertThat(cuda).hasSize(3).allSatisfy(f -> {
      assertThat(f.reason()).isEqualTo("DEVICE_UNAVAILABLE");
      assertThat(f.nativeCode()).isEqualTo(35);
      assertThat(f.nativeMessage()).contains("cudaErrorInsufficientDriver",
          "CUDA driver version is insufficient for CUDA runtime version");
      assertThat(f.remediation()).containsIgnoringCase("driver");
    });
  }

  @Test
  void theUcxFailureNamesTheMissingCudaMemoryDomainAndTheTransportsPresent() {
    assumeUcxLoaded();
    var ucx = failures("ucx");
    assertThat(ucx).hasSize(3).allSatisfy(f -> {
      assertThat(f.reason()).isEqualTo("NO_MEMORY_DOMAIN");
      assertThat(f.detail()).contains("no CUDA memory domain");
      assertThat(f.capability().transports()).contains("posix"); // the default since F0: shared memory, no tcp
      assertThat(f.detail()).contains("transports: " + String.join(", ", f.capability().transports()));
      assertThat(f.remediation()).contains("CUDA support");
    });
  }

  @Test
  void theFallbackRecordsWhyTheStagedPathCannotRunHere() {
    assumeTrue(Cuda.libraryError().isEmpty(), () -> "SKIPPED: no CUDA runtime here: " + Cuda.libraryError().get());
    assumeTrue(!Cuda.probe().usable(), "SKIPPED: a usable GPU is present; this checks the no-driver diagnosis");
    assumeUcxLoaded(); // the staged path sends through UCX; without it, it says that instead
    var staged = failures("staged");
    assertThat(staged).hasSize(3).allSatisfy(f -> {
      assertThat(f.reason()).isEqualTo("BACKEND_UNAVAILABLE");
      assertThat(f.detail()).contains("CUDA cannot copy device memory here", "driver");
      assertThat(f.capability().available()).isFalse();
      assertThat(f.remediation()).contains("driver", "UCX built with CUDA");
    });
  }

  @Test
  void theNodeKeepsServingAndItsCapabilitiesSayVramIsUnavailableAndWhy() {
    var decision = LOG.envelopes().stream().map(e -> e.data())
        .filter(e -> e instanceof RegistrationDecision).map(e -> (RegistrationDecision) e).toList();
    assertThat(decision).singleElement().satisfies(d -> {
      assertThat(d.component()).isEqualTo("state_data");
      assertThat(d.policy()).isEqualTo("FALLBACK_STAGED");
      assertThat(d.outcome()).contains("keeps serving");
    });
    var state = FleetState.fold(LOG.envelopes());
    assertThat(state.counts().completed()).isGreaterThanOrEqualTo(10);
    var joined = LOG.envelopes().stream().map(e -> e.data())
        .filter(e -> e instanceof PeerJoined j && j.nodeId().equals(DemoFleet.PREFILL))
        .map(e -> (PeerJoined) e).findFirst().orElseThrow();
    assertThat(joined.capabilities()).noneMatch(c -> c.available() && c.memoryTypes().contains(MemoryType.VRAM));
    assertThat(joined.capabilities()).filteredOn(c -> !c.memoryTypes().contains(MemoryType.VRAM))
        .extracting(BackendCapability::detail).anyMatch(d -> d.contains("VRAM"));
  }
}
