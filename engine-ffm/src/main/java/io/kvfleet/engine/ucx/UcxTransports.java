package io.kvfleet.engine.ucx;

/**
 * Which UCX_TLS an engine's context gets. UCX 1.13's {@code cma} transport takes the peer's pid
 * from the worker address and moves bytes with {@code process_vm_writev}, so a forged worker
 * address could point it at any process of the agent's user: it is excluded unless the operator
 * chose the transports (in the engine's config or the environment).
 */
final class UcxTransports {
  private UcxTransports() {}

  /** The default when nobody chose: every transport but {@code cma}. */
  static final String WITHOUT_CMA = "^cma";

  /**
   * {@code configured} when not empty; empty (UCX reads the environment) when {@code environment}
   * is set; else {@link #WITHOUT_CMA}.
   */
  static String chosen(String configured, String environment) {
    if (!configured.isEmpty()) {
      return configured;
    }
    return environment != null && !environment.isBlank() ? "" : WITHOUT_CMA;
  }
}
