package io.kvfleet.control.kafka;

import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.apache.kafka.common.metrics.KafkaMetric;
import org.apache.kafka.common.metrics.MetricsReporter;

/**
 * A Kafka metrics reporter that records every client made with it: Kafka configures a reporter in
 * the client's constructor, on the thread that builds the client, and closes it with the client.
 * So a test sees which thread built each real client of a broker and which are still open. Give it
 * to every client of a test broker with {@link #watch}.
 */
public final class OpenClients implements MetricsReporter {
  private static final Queue<OpenClients> MADE = new ConcurrentLinkedQueue<>();
  private volatile String clientId = "";
  private volatile String bootstrapServers = "";
  private volatile String thread = "";
  private volatile boolean onEventLoop;
  private volatile boolean closed;

  /** Every Kafka client of {@code bootstrapServers} made from now on in this process is recorded. */
  public static void watch(String bootstrapServers) {
    KafkaClients.use(bootstrapServers, Map.of("metric.reporters", OpenClients.class.getName()));
  }

  /** The clients of {@code bootstrapServers} made so far whose client id contains {@code part}. */
  public static List<OpenClients> made(String bootstrapServers, String part) {
    return MADE.stream().filter(c -> c.bootstrapServers.equals(bootstrapServers) && c.clientId.contains(part))
        .toList();
  }

  /** Those of {@link #made} not closed yet. */
  public static List<OpenClients> open(String bootstrapServers, String part) {
    return made(bootstrapServers, part).stream().filter(c -> !c.closed).toList();
  }

  @Override
  public void configure(Map<String, ?> configs) {
    clientId = String.valueOf(configs.get("client.id"));
    Object servers = configs.get("bootstrap.servers");
    bootstrapServers = servers instanceof List<?> list ? String.join(",", list.stream().map(String::valueOf).toList())
        : String.valueOf(servers);
    thread = Thread.currentThread().getName();
    onEventLoop = io.vertx.core.Context.isOnEventLoopThread();
    MADE.add(this);
  }

  @Override
  public void init(List<KafkaMetric> metrics) {
  }

  @Override
  public void metricChange(KafkaMetric metric) {
  }

  @Override
  public void metricRemoval(KafkaMetric metric) {
  }

  @Override
  public void close() {
    closed = true;
  }

  public String clientId() {
    return clientId;
  }

  /** The thread that built the client. */
  public String thread() {
    return thread;
  }

  /** Whether a Vert.x event loop built the client. */
  public boolean onEventLoop() {
    return onEventLoop;
  }

  @Override
  public String toString() {
    return clientId + " (built on " + thread + (closed ? ", closed)" : ", open)");
  }
}
