package io.kvfleet.control.ops;

import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.ext.web.Router;
import io.vertx.micrometer.MicrometerMetricsFactory;
import io.vertx.micrometer.MicrometerMetricsOptions;
import io.kvfleet.events.ReasonCodes;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.IntSupplier;

/** A process's Prometheus registry, the Vert.x that reports its own metrics to it, and its {@code /metrics}. */
public final class OpsMetrics {
  private OpsMetrics() {}

  /** A new Prometheus registry, with the JVM's memory, threads and CPU in it. */
  public static PrometheusMeterRegistry registry() {
    var registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    new JvmMemoryMetrics().bindTo(registry);
    new JvmThreadMetrics().bindTo(registry);
    new ProcessorMetrics().bindTo(registry);
    return registry;
  }

  /**
   * A Vert.x whose own metrics (event loops, EventBus, HTTP) go to {@code registry}. Vert.x keeps
   * metrics backends in a static map by registry name: under the default name, every such Vert.x in
   * a process (a test's fleets, a bench beside a demo) reported into whichever registry came first,
   * and another's scrape lacked its own EventBus.
   */
  public static Vertx vertx(PrometheusMeterRegistry registry) {
    var options = new MicrometerMetricsOptions().setEnabled(true)
        .setRegistryName("kvfleet-" + java.util.UUID.randomUUID());
    return Vertx.builder().with(new VertxOptions().setMetricsOptions(options))
        .withMetrics(new MicrometerMetricsFactory(registry)).build();
  }

  /**
   * The agent's metrics routes: {@code /metrics} on its local API, with its publisher's buffer fill
   * ({@code waiting} of {@code capacity}) beside Vert.x's own metrics.
   */
  public static Consumer<Router> agentRoutes(PrometheusMeterRegistry registry, String nodeId, IntSupplier waiting,
      int capacity) {
    // A strong reference: Micrometer holds a gauge's object weakly, and nothing else holds this supplier (it read
    // NaN once collected, the gauge an operator alerts on while Kafka is away).
    io.micrometer.core.instrument.Gauge.builder("kvfleet_publisher_buffer_events", waiting, IntSupplier::getAsInt)
        .strongReference(true)
        .tag("node", nodeId).description("events the agent's publisher holds that Kafka has not acknowledged")
        .register(registry);
    io.micrometer.core.instrument.Gauge.builder("kvfleet_publisher_buffer_capacity_events", () -> capacity)
        .tag("node", nodeId).register(registry);
    return router -> router.get("/metrics").handler(ctx -> ctx.response()
        .putHeader("content-type", "text/plain; version=0.0.4; charset=utf-8").end(registry.scrape()));
  }

  /**
   * {@code kvfleet_orders_refused_total}: the orders an agent refused, by reason code, from its live
   * {@code refused} counts (held by the agent: the registry keeps only a weak reference).
   */
  public static void orderRefusals(MeterRegistry registry, String nodeId, Map<String, Long> refused) {
    for (String reason : List.of(ReasonCodes.ORDER_NOT_FROM_LOG, ReasonCodes.ORDER_MALFORMED,
        ReasonCodes.ORDER_WRONG_EPOCH, ReasonCodes.ORDER_UNSIGNED, ReasonCodes.ORDER_KEY_UNKNOWN,
        ReasonCodes.ORDER_SIGNATURE_INVALID)) {
      FunctionCounter.builder("kvfleet_orders_refused", refused, r -> r.getOrDefault(reason, 0L))
          .tag("node", nodeId).tag("reason", reason)
          .description("orders the agent refused (not from the log, not for this incarnation, not signed as the trust"
              + " file requires); none ends a transfer")
          .register(registry);
    }
  }
}
