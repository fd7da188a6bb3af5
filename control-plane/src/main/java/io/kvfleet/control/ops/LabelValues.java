package io.kvfleet.control.ops;

import io.kvfleet.events.EventType;
import io.kvfleet.events.ReasonCodes;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.regex.Pattern;

/**
 * Metric label values taken from records, kept bounded. A record's writer chooses its reason, backend, path,
 * policy and type strings, and every distinct value is a time series that the coordinator keeps and Prometheus
 * scrapes for ever: a writer that varied them would grow both without bound. A value is kept as it is when this
 * build knows it (a reason code, an event type, a backend), or when it is one of the first {@link #PER_LABEL} others seen for
 * its label and is shaped like a label value; any other is counted under {@link #OTHER}, and {@code capped} is
 * told its label ({@link FleetMetrics} counts each value it replaced as
 * {@code kvfleet_metric_label_values_capped{label}}). One thread calls it.
 */
final class LabelValues {
  static final int PER_LABEL = 64;
  static final String OTHER = "other";
  private static final Pattern SHAPE = Pattern.compile("[A-Za-z0-9_./:-]{1,64}");
  /** The engine's backends, the data plane's own paths, and the native errors' label for a transfer. */
  private static final Set<String> BACKENDS = Set.of("ucx", "cuda", "host", "staged", "jvm", "none", "transfer");
  private final Consumer<String> capped;
  private final Map<String, Set<String>> seen = new HashMap<>();

  LabelValues(Consumer<String> capped) {
    this.capped = capped;
  }

  /** {@code value} as the value of label {@code label}: itself, or {@link #OTHER} once the label holds enough. */
  String of(String label, String value) {
    if (known(label, value)) {
      return value;
    }
    var values = seen.computeIfAbsent(label, l -> new HashSet<>());
    if (values.contains(value)) {
      return value;
    }
    if (values.size() < PER_LABEL && SHAPE.matcher(value).matches()) {
      values.add(value);
      return value;
    }
    capped.accept(label);
    return OTHER;
  }

  private static boolean known(String label, String value) {
    return switch (label) {
      case "reason" -> value.equals("NONE") || ReasonCodes.isKnown(value);
      case "type" -> EventType.byWireName(value).isPresent();
      case "backend" -> BACKENDS.contains(value);
      default -> false;
    };
  }
}
