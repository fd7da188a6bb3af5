package io.kvfleet.engine.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.kvfleet.engine.Capability;
import io.kvfleet.engine.Engine;
import io.kvfleet.engine.EngineConfig;
import io.kvfleet.engine.HostMemory;
import io.kvfleet.engine.Peer;
import io.kvfleet.engine.RegionRequest;
import io.kvfleet.engine.Registration;
import io.kvfleet.engine.RemoteRegion;
import io.kvfleet.engine.TransferBatch;
import io.kvfleet.engine.TransferFailure;
import io.kvfleet.engine.TransferResult;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A peer process that dies ends the next batch promptly as PEER_LOST, never as a long hang. */
class PeerFailureTest {
  private static final long BYTES = 1 << 20;

  @Test
  void aBatchToAPeerThatDiedOverTcpEndsAsPeerLost() {
    batchAfterThePeerDies("ucx", "tcp");
  }

  @Test
  void aBatchToAPeerThatDiedOnThisHostEndsAsPeerLost() {
    batchAfterThePeerDies("host", "");
  }

  private void batchAfterThePeerDies(String backend, String transports) {
    EngineConfig config = EngineConfig.defaults().withBackends(backend)
        .withUcxTransports(transports).withTransferDeadline(Duration.ofSeconds(20));
    try (Engine engine = Engine.open(config)) {
      Capability capability = engine.capability(backend).orElseThrow();
      assumeTrue(capability.available(), backend + " is not available here: " + capability.detail());
      ChildTarget receiver = ChildTarget.start(backend, BYTES, transports, false, Map.of());
      HostMemory memory = engine.allocate("source", BYTES);
      Registration source = engine.register(RegionRequest.of(memory)).registration(backend).orElseThrow();
      Peer peer = engine.connect(receiver.address());
      RemoteRegion remote = peer.attach(receiver.key());
      TransferBatch batch = new TransferBatch().add(source, 0, remote, 0, BYTES);
      assertThat(peer.write(batch).succeeded()).isTrue();

      receiver.kill();
      long started = System.nanoTime();
      TransferResult result = peer.write(batch);

      assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(15));
      assertThat(result).isInstanceOfSatisfying(TransferResult.Failed.class, failed -> {
        assertThat(failed.reason()).isEqualTo(TransferFailure.PEER_LOST);
        assertThat(failed.nativeCode()).isNotZero();
      });
      assertThat(peer.isUsable()).isFalse();
    }
  }
}
