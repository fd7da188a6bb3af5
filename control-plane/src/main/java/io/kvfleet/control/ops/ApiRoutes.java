package io.kvfleet.control.ops;

import io.kvfleet.control.coordinator.CoordinatorView;
import io.kvfleet.events.MemoryType;
import io.kvfleet.events.RegionKind;
import io.kvfleet.events.RegistrationFailed;
import io.kvfleet.events.replay.ExplainTarget;
import io.kvfleet.events.state.RegionStatus;
import io.kvfleet.events.state.TransferStatus;
import io.kvfleet.events.state.TransferView;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/** The read endpoints under {@code /api/v1} (documented in {@code openapi/coordinator.yaml}). */
final class ApiRoutes {
  private static final Set<String> TRANSFER_STATES = Stream.concat(Stream.of("IN_FLIGHT"),
      Arrays.stream(TransferStatus.values()).map(Enum::name)).collect(Collectors.toUnmodifiableSet());
  private static final Set<String> EXPLAIN_KINDS = Set.of("transfer", "region", "node");

  private final CoordinatorView view;
  private final RecentRecords recent;
  private final Summary summary;

  ApiRoutes(CoordinatorView view, RecentRecords recent, Summary summary) {
    this.view = view;
    this.recent = recent;
    this.summary = summary;
  }

  void mount(Router router, EventStream stream) {
    get(router, "/api/v1/peers", p -> view.state().peers().stream().map(PeerItem::of).toList());
    get(router, "/api/v1/regions", this::regions);
    get(router, "/api/v1/registrations/failures", p -> failures(p.text("node").orElse(null)));
    get(router, "/api/v1/transfers", this::transfers);
    router.get("/api/v1/transfers/:id").handler(ctx -> view.state().transfer(ctx.pathParam("id")).ifPresentOrElse(
        t -> OpsHttp.json(ctx, 200, t),
        () -> OpsHttp.error(ctx, 404, "no transfer " + ctx.pathParam("id") + " in the coordinator's state")));
    get(router, "/api/v1/events", this::events);
    get(router, "/api/v1/explain", this::explain);
    get(router, "/api/v1/state", p -> view.position());
    get(router, "/api/v1/summary", p -> summary.now(view));
    router.get("/api/v1/stream").handler(stream::open);
  }

  private static void get(Router router, String path, Function<Params, Object> answer) {
    router.get(path).handler(ctx -> {
      try {
        OpsHttp.json(ctx, 200, answer.apply(new Params(ctx)));
      } catch (BadParameter e) {
        OpsHttp.error(ctx, 400, e.getMessage());
      }
    });
  }

  private Object regions(Params p) {
    var node = p.text("node");
    var kind = p.choice("kind", RegionKind.class);
    var memoryType = p.choice("memoryType", MemoryType.class);
    var status = p.choice("status", RegionStatus.class);
    var backend = p.text("backend");
    return view.state().regions().stream()
        .filter(r -> node.map(r.nodeId()::equals).orElse(true))
        .filter(r -> kind.map(k -> r.spec().kind() == k).orElse(true))
        .filter(r -> memoryType.map(m -> r.spec().memoryType() == m).orElse(true))
        .filter(r -> status.map(s -> r.status() == s).orElse(true))
        .filter(r -> backend.map(b -> r.remoteKeys().containsKey(b) || r.failedBackends().containsKey(b)).orElse(true))
        .toList();
  }

  /** Failures grouped by reason, then node, newest last, each with its diagnosis and remediation. */
  private Object failures(String node) {
    Map<String, Map<String, List<Diagnosis>>> grouped = new TreeMap<>();
    for (RegistrationFailed f : view.state().failures()) {
      if (node != null && !node.equals(f.nodeId())) {
        continue;
      }
      grouped.computeIfAbsent(f.reason(), r -> new TreeMap<>())
          .computeIfAbsent(f.nodeId(), n -> new java.util.ArrayList<>()).add(Diagnosis.of(f));
    }
    return Map.of("byReason", view.state().failuresByReason(), "groups", grouped);
  }

  private Object transfers(Params p) {
    var state = p.oneOf("state", TRANSFER_STATES, v -> v.toUpperCase(Locale.ROOT));
    int limit = p.integer("limit", 100, 1, 10_000);
    var node = p.text("node");
    return view.state().transfers().stream()
        .filter(t -> state.map(s -> s.equals("IN_FLIGHT") ? !t.status().isTerminal() : t.status().name().equals(s))
            .orElse(true))
        .filter(t -> node.map(t::touches).orElse(true))
        .sorted(Comparator.comparing(TransferView::updatedAt).reversed())
        .limit(limit)
        .toList();
  }

  private Object events(Params p) {
    var filter = new RecentRecords.Filter(p.text("node"),
        p.oneOf("type", EventTypes.WIRE_NAMES, Function.identity()), p.time("since"), p.time("until"));
    return recent.page(p.longValue("after", 0), p.integer("limit", 100, 1, 1_000), filter);
  }

  private Object explain(Params p) {
    String kind = p.oneOf("kind", EXPLAIN_KINDS, v -> v.toLowerCase(Locale.ROOT))
        .orElseThrow(() -> new BadParameter("kind is required: transfer, region or node"));
    String id = p.text("id").orElseThrow(() -> new BadParameter("id is required: a transfer id, NODE/REGION or a node id"));
    return recent.explain(ExplainTarget.of(kind, id));
  }
}
