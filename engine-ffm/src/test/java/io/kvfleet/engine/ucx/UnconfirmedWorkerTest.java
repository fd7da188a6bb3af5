package io.kvfleet.engine.ucx;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.kvfleet.engine.Capability;
import io.kvfleet.engine.Engine;
import io.kvfleet.engine.EngineConfig;
import io.kvfleet.engine.Peer;
import io.kvfleet.engine.RegionRequest;
import io.kvfleet.engine.Registration;
import io.kvfleet.engine.RemoteKey;
import io.kvfleet.engine.TransferBatch;
import io.kvfleet.engine.TransferFailure;
import io.kvfleet.engine.TransferResult;
import io.kvfleet.engine.WorkerAddress;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.junit.jupiter.api.Test;

/**
 * A forged record names a UCX worker that is no kvfleet agent (another UCX program of the same
 * user, with memory it mapped for itself): it cannot answer the question, so after the bound the
 * write fails {@code NO_GRANT} and its memory is untouched.
 */
@SuppressWarnings("restricted") // FFM by design: the victim's memory is read back to check it
class UnconfirmedWorkerTest {
  private static final long LENGTH = 8192;

  /**
   * Shared memory only: a bare worker whose TCP address refuses the connection makes UCX 1.13
   * abort the asking process (ucp_request.c:684, a wireup request purged), see docs/SECURITY.md.
   */
  @Test
  void refusesAWorkerThatCannotConfirmTheRegion() {
    writeToABareWorker("posix,sysv,self");
  }

  private static void writeToABareWorker(String victimTransports) {
    try (Engine source = Engine.open(EngineConfig.defaults().withBackends("ucx").withName("source"))) {
      Capability ucx = source.capability("ucx").orElseThrow();
      assumeTrue(ucx.available(), "UCX is not available here: " + ucx.detail());
      try (UcpContext context = UcpContext.create("victim", victimTransports, false);
          UcpWorker victim = UcpWorker.create(context, "victim");
          UcxMemory memory = ((UcxMemory.Ok) UcxMemory.allocate(context, LENGTH)).memory()) {
        MemorySegment.ofAddress(memory.address()).reinterpret(LENGTH).fill((byte) 3);
        Registration from = source.register(RegionRequest.of(source.allocate("kv", LENGTH)))
            .registration("ucx").orElseThrow();
        MemorySegment.ofAddress(from.address()).reinterpret(LENGTH).fill((byte) 7);
        Peer peer = source.connect(new WorkerAddress("ucx", victim.address()));
        RemoteKey forged = new RemoteKey("ucx", memory.address(), LENGTH, memory.packedKey());

        TransferResult result = peer.write(new TransferBatch().add(from, 0, peer.attach(forged), 0, LENGTH));

        assertThat(result).isInstanceOfSatisfying(TransferResult.Failed.class, failed -> {
          assertThat(failed.reason()).isEqualTo(TransferFailure.NO_GRANT);
          assertThat(failed.detail()).contains("did not confirm");
        });
        byte[] seen = MemorySegment.ofAddress(memory.address()).reinterpret(LENGTH).toArray(ValueLayout.JAVA_BYTE);
        assertThat(seen).containsOnly(3);
        peer.close();
      }
    }
  }
}
