package io.kvfleet.engine;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.Set;

/**
 * How to open an engine.
 *
 * @param name shown in diagnostics and UCX's context name (e.g. the node id)
 * @param backends the backends to load by name; empty loads every provider found
 * @param ucxTransports UCX_TLS for this engine's UCX context (e.g. {@code tcp} or {@code
 *     posix,sysv,cma,self}), the caller's explicit choice, taken as given; empty: {@code posix,self}
 *     (with {@code ucxAllowTcp} {@code posix,tcp,self}), or the process environment's UCX_TLS
 * @param progress how the engine serves peers that write into it (see {@link Progress})
 * @param peerFailureDetection ask UCX for UCP_ERR_HANDLING_MODE_PEER, so a dead peer fails a batch
 *     at once; UCX then uses only transports with a peer-failure handler (TCP here, not shared
 *     memory), so it is off by default and the transfer deadline bounds every wait instead; on
 *     the default transports (no tcp) the endpoint falls back to no peer-failure handling
 * @param transferDeadline how long {@link PendingTransfer#await()} waits for a batch
 * @param ucxNetDevices UCX_NET_DEVICES for this engine's UCX context (e.g. {@code lo}, so UCX's TCP
 *     transport listens on loopback only); empty keeps UCX's default, every device (or the process
 *     environment's UCX_NET_DEVICES)
 * @param ucxAllowTcp let the default transports (and an environment's UCX_TLS) include UCX's
 *     {@code tcp}, which serves RMA at any address to whoever reaches its port (docs/SECURITY.md,
 *     F0); off by default: shared memory only ({@code posix,self})
 */
public record EngineConfig(
    String name,
    Set<String> backends,
    String ucxTransports,
    Progress progress,
    boolean peerFailureDetection,
    Duration transferDeadline,
    String ucxNetDevices,
    boolean ucxAllowTcp) {

  /** How the engine progresses the worker that peers write into. */
  public enum Progress {
    /** A thread that sleeps on the worker's event file descriptor (little CPU, some latency). */
    EVENT,
    /** A thread that spins on the worker, like ucx_perftest's responder (one core, lowest latency). */
    BUSY_POLL
  }

  public EngineConfig {
    requireNonNull(name, "name must not be null");
    backends = Set.copyOf(requireNonNull(backends, "backends must not be null"));
    requireNonNull(ucxTransports, "ucxTransports must not be null (use \"\")");
    requireNonNull(progress, "progress must not be null");
    requireNonNull(transferDeadline, "transferDeadline must not be null");
    requireNonNull(ucxNetDevices, "ucxNetDevices must not be null (use \"\")");
    if (transferDeadline.isNegative() || transferDeadline.isZero()) {
      throw new IllegalArgumentException("transferDeadline must be positive: " + transferDeadline);
    }
  }

  /** Every backend, UCX on shared memory only (no tcp), event-driven progress, 30 s deadline. */
  public static EngineConfig defaults() {
    return new EngineConfig("kvfleet", Set.of(), "", Progress.EVENT, false, Duration.ofSeconds(30), "", false);
  }

  public EngineConfig withName(String newName) {
    return new EngineConfig(newName, backends, ucxTransports, progress, peerFailureDetection,
        transferDeadline, ucxNetDevices, ucxAllowTcp);
  }

  public EngineConfig withBackends(String... names) {
    return new EngineConfig(name, Set.of(names), ucxTransports, progress, peerFailureDetection,
        transferDeadline, ucxNetDevices, ucxAllowTcp);
  }

  public EngineConfig withUcxTransports(String transports) {
    return new EngineConfig(name, backends, transports, progress, peerFailureDetection,
        transferDeadline, ucxNetDevices, ucxAllowTcp);
  }

  public EngineConfig withProgress(Progress newProgress) {
    return new EngineConfig(name, backends, ucxTransports, newProgress, peerFailureDetection,
        transferDeadline, ucxNetDevices, ucxAllowTcp);
  }

  public EngineConfig withPeerFailureDetection(boolean enabled) {
    return new EngineConfig(name, backends, ucxTransports, progress, enabled, transferDeadline, ucxNetDevices, ucxAllowTcp);
  }

  public EngineConfig withTransferDeadline(Duration deadline) {
    return new EngineConfig(name, backends, ucxTransports, progress, peerFailureDetection,
        deadline, ucxNetDevices, ucxAllowTcp);
  }

  public EngineConfig withUcxNetDevices(String devices) {
    return new EngineConfig(name, backends, ucxTransports, progress, peerFailureDetection,
        transferDeadline, devices, ucxAllowTcp);
  }

  /** This config with UCX's tcp transport allowed or not (see {@code ucxAllowTcp}). */
  public EngineConfig withUcxAllowTcp(boolean allowed) {
    return new EngineConfig(name, backends, ucxTransports, progress, peerFailureDetection,
        transferDeadline, ucxNetDevices, allowed);
  }

  /** Whether {@code backend} is to be loaded. */
  public boolean enables(String backend) {
    return backends.isEmpty() || backends.contains(backend);
  }
}
