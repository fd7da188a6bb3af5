package io.kvfleet.engine.ucx;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.kvfleet.engine.Capability;
import io.kvfleet.engine.Engine;
import io.kvfleet.engine.EngineConfig;
import io.kvfleet.engine.EngineException;
import io.kvfleet.engine.Peer;
import io.kvfleet.engine.TransferFailure;
import org.junit.jupiter.api.Test;

/**
 * A peer that offers only tcp, seen from an engine whose UCX runs without tcp (the default): the connect fails at once
 * with {@link TransferFailure#NO_COMMON_TRANSPORT} and a message that says how to get tcp back, not a raw UCX error
 * and not a hang; with tcp allowed the same peer is reached over tcp.
 */
class TcpOnlyPeerTest {
  @Test
  void aPeerReachableOnlyOverTcpFailsNoCommonTransportWhenTcpIsOff() {
    try (Engine peer = Engine.open(EngineConfig.defaults().withBackends("ucx").withName("tcp-only")
            .withUcxTransports("tcp"));
        Engine source = Engine.open(EngineConfig.defaults().withBackends("ucx").withName("source"))) {
      assumeAvailable(source);
      assertThat(source.capability("ucx").orElseThrow().transports()).as("the default transports")
          .doesNotContain("tcp", "sysv", "cma");

      assertThatThrownBy(() -> source.connect(peer.address("ucx")))
          .isInstanceOfSatisfying(EngineException.class, e -> assertThat(e.transferFailure())
              .contains(TransferFailure.NO_COMMON_TRANSPORT))
          .hasMessageContaining("offers none of this engine's transports")
          .hasMessageContaining("--ucx-allow-tcp");
    }
  }

  @Test
  void theSamePeerIsReachedOverTcpWhenTcpIsAllowed() {
    try (Engine peer = Engine.open(EngineConfig.defaults().withBackends("ucx").withName("tcp-only")
            .withUcxTransports("tcp"));
        Engine source = Engine.open(EngineConfig.defaults().withBackends("ucx").withName("source")
            .withUcxAllowTcp(true))) {
      assumeAvailable(source);
      try (Peer connected = source.connect(peer.address("ucx"))) {
        assertThat(connected.path()).isEqualTo("ucx/tcp");
      }
    }
  }

  private static void assumeAvailable(Engine engine) {
    Capability ucx = engine.capability("ucx").orElseThrow();
    assumeTrue(ucx.available(), "UCX is not available here: " + ucx.detail());
  }
}
