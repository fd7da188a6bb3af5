package io.kvfleet.engine.ucx;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.kvfleet.engine.Capability;
import io.kvfleet.engine.Engine;
import io.kvfleet.engine.EngineConfig;
import io.kvfleet.engine.EngineException;
import io.kvfleet.engine.RegionRequest;
import io.kvfleet.engine.Registration;
import io.kvfleet.engine.ucx.internal.Ucp;
import io.kvfleet.engine.ucx.internal.UcpLayouts;
import io.kvfleet.engine.ucx.internal.UcsStatus;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.junit.jupiter.api.Test;

/**
 * F0, closed by the UCX transports an engine uses by default (posix and self only: {@link UcxTransports}); fails on
 * the code before it, whose default took tcp and sysv. Red team (att2). docs/SECURITY.md, UCX: "TCP RMA is served by
 * the peer's worker at any address it is sent", and the key confirmation it adds protects only the <i>asking</i> side (an agent checks a remote key with the peer before
 * it writes). Nothing protects the <i>target</i>: a stranger runs a UCX worker of its own (no kvfleet code, so no
 * question asked), connects to an agent's worker address (public, in {@code peer.joined}), unpacks one of the agent's
 * real rkeys (public, in {@code region.registered}) and puts to any address in the agent's process. No record, key,
 * token or grant is needed; on loopback (the default cluster host) any local user reaches the TCP port, on another
 * cluster host anyone on the fleet's network. Here the target engine registered one buffer; the stranger writes a
 * buffer of the target's process that nobody registered.
 */
@SuppressWarnings("restricted") // FFM by design: the stranger's own UCX calls, and the victim's bytes read back
class InboundRmaAttackTest {
  /**
   * What a stranger without the agent's uid can open: TCP (anyone who reaches the port) and sysv (UCX creates its
   * segments group read-write). posix is left out on purpose: its FIFO opens only through {@code /proc/<pid>/fd},
   * i.e. for a process that may ptrace the agent anyway, and this test runs as the agent's own user.
   */
  private static final String[] STRANGERS_TRANSPORTS = {"tcp", "sysv"};

  private static final long LENGTH = 8192;
  /**
   * A packed rkey that names no memory domain (md_map 0, memory type host: ucp_rkey_pack_common's layout): UCX then
   * has no RMA lane for it and puts through active messages, which ucp_put_handler (rma_sw.c) writes where the
   * header says. A stranger writes these 9 bytes itself; no key of the agent's is needed.
   */
  private static final byte[] NO_DOMAIN_RKEY = new byte[9];
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
      for (String tls : STRANGERS_TRANSPORTS) {
        for (byte[] rkey : new byte[][] {NO_DOMAIN_RKEY, registered.remoteKey().packed()}) {
          String outcome = strangerPuts(tls, target.address("ucx").bytes(), rkey, victim.address());
          assertThat(victim.toArray(ValueLayout.JAVA_BYTE)).as("memory of the target's process no one registered,"
              + " after a stranger's put over " + tls + " through " + describe(rkey) + " (" + outcome + ")")
              .containsOnly(0);
        }
      }
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
        var in = new java.io.PrintWriter(victim.getOutputStream(), true)) {
      String[] said = out.readLine().split(" "); // "victim <worker address> <rkey> <unregistered address>"
      var hex = java.util.HexFormat.of();
      for (String tls : STRANGERS_TRANSPORTS) {
        for (byte[] rkey : new byte[][] {NO_DOMAIN_RKEY, hex.parseHex(said[2])}) {
          String outcome = strangerPuts(tls, hex.parseHex(said[1]), rkey, Long.parseLong(said[3]));
          in.println("count");
          assertThat(out.readLine()).as("bytes of another process's memory no one registered that a stranger's"
              + " put over " + tls + " through " + describe(rkey) + " wrote (" + outcome + ")").isEqualTo("count 0");
        }
      }
    } finally {
      victim.getOutputStream().close();
      if (!victim.waitFor(20, java.util.concurrent.TimeUnit.SECONDS)) {
        victim.destroyForcibly();
      }
    }
  }

  private static String describe(byte[] rkey) {
    return rkey == NO_DOMAIN_RKEY ? "an rkey of no memory domain" : "one of its public rkeys";
  }

  /**
   * A stranger's own UCX worker on {@code tls} connects to {@code workerAddress}, unpacks {@code rkey} and puts 9s
   * at {@code address}; says what happened. UCX's "unreachable" at connect is the defence; any other failure throws.
   */
  private static String strangerPuts(String tls, byte[] workerAddress, byte[] rkey, long address) throws Throwable {
    try (UcpContext context = UcpContext.create("stranger", tls, false);
        UcpWorker stranger = UcpWorker.create(context, "stranger");
        UcxMemory local = ((UcxMemory.Ok) UcxMemory.allocate(context, LENGTH)).memory();
        Arena arena = Arena.ofConfined()) {
      MemorySegment.ofAddress(local.address()).reinterpret(LENGTH).fill((byte) 9);
      UcpEndpoint endpoint;
      try {
        endpoint = UcpEndpoint.connect(stranger, workerAddress, false);
      } catch (EngineException e) {
        if (e.nativeCode() != UcsStatus.ERR_UNREACHABLE) {
          throw e;
        }
        return "refused at connect: " + e.getMessage();
      }
      long key = endpoint.unpack(rkey, "the target's public rkey");
      MemorySegment plain = arena.allocate(UcpLayouts.REQUEST_PARAM); // no attributes
      long put = (long) Ucp.PUT_NBX.invokeExact(endpoint.handle(), local.address(), LENGTH, address, key,
          local.requestParam());
      await(stranger, put);
      long flush = (long) Ucp.EP_FLUSH_NBX.invokeExact(endpoint.handle(), plain.address());
      await(stranger, flush);
      return "connected and put";
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
