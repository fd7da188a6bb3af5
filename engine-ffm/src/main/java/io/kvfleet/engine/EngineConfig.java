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
 *     posix,sysv,cma,self}); empty keeps UCX's default (or the process environment's UCX_TLS)
 * @param progress how the engine serves peers that write into it (see {@link Progress})
 * @param peerFailureDetection ask UCX for UCP_ERR_HANDLING_MODE_PEER, so a dead peer fails a batch
 *     at once; UCX then uses only transports with a peer-failure handler (TCP here, not shared
 *     memory), so it is off by default and the transfer deadline bounds every wait instead
 * @param transferDeadline how long {@link PendingTransfer#await()} waits for a batch
 * @param ucxNetDevices UCX_NET_DEVICES for this engine's UCX context (e.g. {@code lo}, so UCX's TCP
 *     transport listens on loopback only); empty keeps UCX's default, every device (or the process
 *     environment's UCX_NET_DEVICES)
 */
public record EngineConfig(
    String name,
    Set<String> backends,
    String ucxTransports,
    Progress progress,
    boolean peerFailureDetection,
    Duration transferDeadline,
    String ucxNetDevices) {

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

  /** Every backend, UCX's default transports, event-driven progress, 30 s deadline. */
  public static EngineConfig defaults() {
    return new EngineConfig("kvfleet", Set.of(), "", Progress.EVENT, false, Duration.ofSeconds(30), "");
  }

  public EngineConfig withName(String newName) {
    return new EngineConfig(newName, backends, ucxTransports, progress, peerFailureDetection,
        transferDeadline, ucxNetDevices);
  }

  public EngineConfig withBackends(String... names) {
    return new EngineConfig(name, Set.of(names), ucxTransports, progress, peerFailureDetection,
        transferDeadline, ucxNetDevices);
  }

  public EngineConfig withUcxTransports(String transports) {
    return new EngineConfig(name, backends, transports, progress, peerFailureDetection,
        transferDeadline, ucxNetDevices);
  }

  public EngineConfig withProgress(Progress newProgress) {
    return new EngineConfig(name, backends, ucxTransports, newProgress, peerFailureDetection,
        transferDeadline, ucxNetDevices);
  }

  public EngineConfig withPeerFailureDetection(boolean enabled) {
    return new EngineConfig(name, backends, ucxTransports, progress, enabled, transferDeadline, ucxNetDevices);
  }

  public EngineConfig withTransferDeadline(Duration deadline) {
    return new EngineConfig(name, backends, ucxTransports, progress, peerFailureDetection,
        deadline, ucxNetDevices);
  }

  public EngineConfig withUcxNetDevices(String devices) {
    return new EngineConfig(name, backends, ucxTransports, progress, peerFailureDetection,
        transferDeadline, devices);
  }

  /** Whether {@code backend} is to be loaded. */
  public boolean enables(String backend) {
    return backends.isEmpty() || backends.contains(backend);
  }
}
