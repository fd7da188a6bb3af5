package io.kvfleet.control.ops;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The agent's publisher buffer gauge, the one an operator alerts on while Kafka is away. */
class AgentMetricsTest {

  /** Micrometer holds a gauge's object weakly: the supplier was collected and the gauge read NaN in a live fleet. */
  @Test
  void theBufferGaugeReadsTheBufferAfterACollection() throws Exception {
    var registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    var held = new AtomicInteger(7);
    OpsMetrics.agentRoutes(registry, "prefill-0", held::get, 100);

    for (int i = 0; i < 3; i++) {
      System.gc();
      Thread.sleep(50);
    }

    assertThat(registry.get("kvfleet_publisher_buffer_events").gauge().value()).isEqualTo(7.0);
  }
}
