package io.kvfleet.control.replay;

import io.kvfleet.events.replay.Anomaly;
import io.kvfleet.events.replay.AnomalyReport;
import io.kvfleet.events.replay.Explanation;
import io.kvfleet.events.replay.StateReport;
import java.io.PrintStream;
import java.util.List;

/** The human-readable form of replay results: state at a moment, anomalies, explanations. */
public final class ReplayText {
  private ReplayText() {}

  /** Peers, regions by node and kind, failures by reason, transfers in flight. */
  public static void state(StateReport s, PrintStream out) {
    out.printf("State %s: %d events folded, hash %s%n", s.position() == null ? "before any record was read"
        : "at " + s.position() + " (" + s.time() + ")", s.counts().applied(), s.hash());
    out.printf("Peers (%d, %d alive):%n", s.peers().size(), s.counts().alivePeers());
    for (var p : s.peers()) {
      out.printf("  %-16s epoch %-14d %-6s on %s, joined %s, last heartbeat %s%s%n", p.nodeId(), p.epoch(), p.status(),
          p.host(), p.joinedAt(), p.lastHeartbeat(),
          p.unavailableBackends().isEmpty() ? "" : "; unavailable: " + String.join(", ", p.unavailableBackends()));
    }
    out.println("Regions by node and kind:");
    s.regions().forEach((node, byKind) -> byKind.forEach((kind, regions) -> {
      out.printf("  %s %s:%n", node, kind);
      for (var r : regions) {
        out.printf("    %-16s %-12s epoch %-14d %s%s %,d B%s%s%n", r.regionId(), r.status(), r.epoch(), r.memoryType(),
            r.device() >= 0 ? " dev " + r.device() : "", r.length(),
            r.registeredWith().isEmpty() ? "" : "  with " + String.join(", ", r.registeredWith()),
            r.refusedBy().isEmpty() ? "" : "  refused by " + r.refusedBy());
      }
    }));
    long refusedRegions = s.failuresByReason().values().stream().flatMap(List::stream)
        .map(f -> f.nodeId() + "/" + f.epoch() + "/" + f.regionId()).distinct().count();
    out.printf("Registration failures by reason (%d backend refusals of %d regions):%n",
        s.counts().registrationFailures(), refusedRegions);
    s.failuresByReason().forEach((reason, failures) -> {
      out.printf("  %s x%d%n", reason, failures.size());
      for (var f : failures) {
        out.printf("    %s epoch %d %s on %s%s%s%s%n", f.nodeId(), f.epoch(), f.regionId(), f.backend(),
            f.detail().isEmpty() ? "" : ": " + f.detail(),
            f.nativeCode() == 0 && f.nativeMessage().isEmpty() ? "" : "; native " + f.nativeCode() + " " + f.nativeMessage(),
            f.remediation().isEmpty() ? "" : "; fix: " + f.remediation());
      }
    });
    out.printf("Transfers: %d requested, %d completed, %d rejected, %d failed, %d timed out, %d in flight%s%n",
        s.counts().transfers(), s.counts().completed(), s.counts().rejected(), s.counts().failed(),
        s.counts().timedOut(), s.counts().inFlight(), s.counts().forgottenTransfers() == 0 ? ""
            : String.format(" (held by the fold; %d more ended earlier and were forgotten, keep-ended window)",
                s.counts().forgottenTransfers()));
    if (!s.endedByReason().isEmpty()) {
      out.println("  not completed, by reason: " + String.join(", ", s.endedByReason().entrySet().stream()
          .map(e -> e.getKey() + " " + e.getValue()).toList()));
    }
    if (s.counts().lateOutcomes() > 0) {
      out.printf("  late outcomes: %d (an outcome after another producer had ended the transfer; first end kept)%n",
          s.counts().lateOutcomes());
    }
    for (var t : s.inFlight()) {
      out.printf("  in flight: %-16s %-10s %s -> %s, %s, requested %s, deadline %s%n", t.transferId(), t.status(),
          t.source(), t.destination(), t.parts().isEmpty() ? String.format("%,d B", t.bytes())
              : "parts " + String.join(", ", t.parts()), t.requestedAt(), t.deadline());
    }
  }

  /** Counts by kind, then the first {@code limit} anomalies listed. */
  public static void anomalies(AnomalyReport report, int limit, PrintStream out) {
    if (report.total() == 0) {
      out.println("Anomalies: none");
      return;
    }
    out.printf("Anomalies (%d): %s%n", report.total(), report.counts());
    List<Anomaly> shown = report.anomalies().subList(0, Math.min(limit, report.anomalies().size()));
    for (Anomaly a : shown) {
      out.printf("  %-21s %-26s %s%n", a.kind(), a.position() == null ? "" : a.position(), a.message());
    }
    if (report.total() > shown.size()) {
      out.printf("  ... %d more (--json lists up to %d of each kind)%n", report.total() - shown.size(), 1_000);
    }
  }

  /** The summary, then each step. */
  public static void explanation(Explanation e, PrintStream out) {
    out.println(e.summary());
    if (!e.steps().isEmpty()) {
      out.println();
      out.println("Events, in replay order:");
      for (var step : e.steps()) {
        out.printf("  %s  %-26s %s%n", step.time(), step.position(), step.text());
      }
    }
  }
}
