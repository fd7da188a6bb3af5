package io.kvfleet.engine.ucx;

import io.kvfleet.engine.EngineException;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Which UCX_TLS an engine's context gets. UCX 1.13 serves RMA to every worker that connects: its
 * {@code tcp} transport writes a put where the header says, and the active-message-emulated RMA of
 * {@code rma_sw.c} (used over any transport with active messages) writes and reads any address
 * of the process, unchecked against the rkey. So by default only transports a stranger cannot
 * reach: {@code posix} (its FIFO is a 0600 file opened through {@code /proc/<pid>/fd}, which needs
 * ptrace rights over the agent) and {@code self}. Not {@code sysv} (its segments are created group
 * read-write), not {@code cma} (it takes the peer's pid from the worker address), not {@code tcp}
 * unless the operator allowed it, not RDMA (its active messages reach the same emulated RMA).
 */
final class UcxTransports {
  private UcxTransports() {}

  /** The default: shared memory only a process with ptrace rights over the agent can open. */
  static final String DEFAULT = "posix,self";
  /** The default with TCP allowed. */
  static final String WITH_TCP = "posix,tcp,self";

  /**
   * {@code configured} when not empty (the caller's explicit choice); empty (UCX reads the
   * environment) when {@code environment} is set and opens no tcp, or tcp is allowed; else {@link
   * #DEFAULT} or, with {@code allowTcp}, {@link #WITH_TCP}.
   *
   * @throws EngineException when the environment's UCX_TLS opens tcp and tcp is not allowed
   */
  static String chosen(String configured, String environment, boolean allowTcp) {
    if (!configured.isEmpty()) {
      return configured;
    }
    if (environment != null && !environment.isBlank()) {
      if (opensTcp(environment) && !allowTcp) {
        throw EngineException.tcpNotAllowed("UCX_TLS=" + environment + " in the environment");
      }
      return "";
    }
    return allowTcp ? WITH_TCP : DEFAULT;
  }

  /**
   * Whether a UCX_TLS value lets UCX use tcp: it names {@code tcp} or {@code all}, or it is an
   * exclusion list ({@code ^...}) that does not exclude tcp.
   */
  static boolean opensTcp(String tls) {
    String value = tls.trim().toLowerCase(Locale.ROOT);
    boolean exclusion = value.startsWith("^");
    List<String> names = Arrays.stream((exclusion ? value.substring(1) : value).split(","))
        .map(String::trim).toList();
    boolean namesTcp = names.stream().anyMatch(n -> n.equals("tcp") || n.startsWith("tcp_") || n.equals("\\tcp"));
    return exclusion ? !namesTcp : namesTcp || names.contains("all");
  }
}
