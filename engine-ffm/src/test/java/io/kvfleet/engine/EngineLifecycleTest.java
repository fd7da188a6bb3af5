package io.kvfleet.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kvfleet.engine.RegistrationOutcome.Skipped;
import org.junit.jupiter.api.Test;

/** Opening, closing and misuse: clear exceptions for misuse, values for expected failures. */
class EngineLifecycleTest {

  @Test
  void closesTwiceWithoutComplaintAndRefusesUseAfterClose() {
    Engine engine = Engine.open(EngineConfig.defaults().withBackends("host"));
    HostMemory memory = engine.allocate("kv", 4096);
    engine.register(RegionRequest.of(memory));
    engine.close();
    engine.close();

    assertThatThrownBy(() -> engine.register(RegionRequest.dram("late", memory.address(), 4096)))
        .isInstanceOf(EngineException.class).hasMessageContaining("is closed");
    assertThatThrownBy(() -> engine.allocate("late", 4096))
        .isInstanceOf(EngineException.class).hasMessageContaining("is closed");
    memory.close();
  }

  @Test
  void anEngineWithoutAUsableBackendStillOpensAndSaysWhy() {
    try (Engine engine = Engine.open(EngineConfig.defaults().withBackends("rdma"))) {
      assertThat(engine.backends()).isEmpty();
      assertThat(engine.capabilities()).singleElement().satisfies(capability -> {
        assertThat(capability.available()).isFalse();
        assertThat(capability.detail()).contains("no provider named rdma");
      });
      RegistrationResult result = engine.register(RegionRequest.dram("kv", 4096, 4096));
      assertThat(result.outcomes()).singleElement().isInstanceOfSatisfying(Skipped.class, skipped ->
          assertThat(skipped.reason()).isEqualTo(RegistrationFailure.BACKEND_UNAVAILABLE));
      assertThatThrownBy(() -> engine.allocate("kv", 4096))
          .isInstanceOf(EngineException.class).hasMessageContaining("no available backend");
    }
  }

  @Test
  void refusesAWorkerAddressOfABackendItDoesNotHave() {
    try (Engine engine = Engine.open(EngineConfig.defaults().withBackends("host"))) {
      assertThatThrownBy(() -> engine.connect(new WorkerAddress("ucx", new byte[8])))
          .isInstanceOf(EngineException.class).hasMessageContaining("backend ucx is not available");
    }
  }

  @Test
  void refusesAHostAddressFromAnotherHost() {
    try (Engine engine = Engine.open(EngineConfig.defaults().withBackends("host"))) {
      byte[] elsewhere = java.nio.ByteBuffer.allocate(8 + 2 + 5).putLong(1).putShort((short) 5)
          .put("other".getBytes(java.nio.charset.StandardCharsets.US_ASCII)).array();
      assertThatThrownBy(() -> engine.connect(new WorkerAddress("host", elsewhere)))
          .isInstanceOf(EngineException.class).hasMessageContaining("is on another host")
          .hasMessageContaining("use ucx");
    }
  }

  @Test
  void refusesARegistrationFromAnotherEngine() {
    try (Engine one = Engine.open(EngineConfig.defaults().withBackends("host"));
        Engine two = Engine.open(EngineConfig.defaults().withBackends("host"))) {
      Registration registration = one.register(RegionRequest.of(one.allocate("kv", 4096)))
          .registration("host").orElseThrow();
      assertThatThrownBy(() -> two.deregister(registration))
          .isInstanceOf(EngineException.class).hasMessageContaining("registered by another engine");
    }
  }
}
