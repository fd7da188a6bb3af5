package io.kvfleet.control.replay;

import io.kvfleet.control.console.EventLine;
import io.kvfleet.events.replay.Anomaly;
import io.kvfleet.events.replay.AnomalyReport;
import io.kvfleet.events.replay.Explanation;
import io.kvfleet.events.replay.StateReport;
import java.io.PrintStream;
import java.util.List;

/** The human-readable form of replay results: state at a moment, anomalies, explanations. */
public final class ReplayText {
  private ReplayText() {}

  /**
   * One line of output: whatever a record put in a field (a line break, a bidi mark) shows as an escape, so a
   * writer cannot start a line of its own in a report (the controls are escaped by {@code Terminal}).
   */
  private static void line(PrintStream out, String format, Object... args) {
    out.println(EventLine.oneLine(args.length == 0 ? format : String.format(format, args)));
  }

  /** Peers, regions by node and kind, failures by reason, transfers in flight. */
  public static void state(StateReport s, PrintStream out) {
    line(out, "State %s: %d events folded, hash %s", s.position() == null ? "before any record was read"
        : "at " + s.position() + " (" + s.time() + ")", s.counts().applied(), s.hash());
    line(out, "Peers (%d, %d alive):", s.peers().size(), s.counts().alivePeers());
    for (var p : s.peers()) {
      line(out, "  %-16s epoch %-14d %-6s on %s, joined %s, last heartbeat %s%s", p.nodeId(), p.epoch(), p.status(),
          p.host(), p.joinedAt(), p.lastHeartbeat(),
          p.unavailableBackends().isEmpty() ? "" : "; unavailable: " + String.join(", ", p.unavailableBackends()));
    }
    line(out, "Regions by node and kind:");
    s.regions().forEach((node, byKind) -> byKind.forEach((kind, regions) -> {
      line(out, "  %s %s:", node, kind);
      for (var r : regions) {
        line(out, "    %-16s %-12s epoch %-14d %s%s %,d B%s%s", r.regionId(), r.status(), r.epoch(), r.memoryType(),
            r.device() >= 0 ? " dev " + r.device() : "", r.length(),
            r.registeredWith().isEmpty() ? "" : "  with " + String.join(", ", r.registeredWith()),
            r.refusedBy().isEmpty() ? "" : "  refused by " + r.refusedBy());
      }
    }));
    long refusedRegions = s.failuresByReason().values().stream().flatMap(List::stream)
        .map(f -> f.nodeId() + "/" + f.epoch() + "/" + f.regionId()).distinct().count();
    line(out, "Registration failures by reason (%d backend refusals of %d regions):",
        s.counts().registrationFailures(), refusedRegions);
    s.failuresByReason().forEach((reason, failures) -> {
      line(out, "  %s x%d", reason, failures.size());
      for (var f : failures) {
        line(out, "    %s epoch %d %s on %s%s%s%s", f.nodeId(), f.epoch(), f.regionId(), f.backend(),
            f.detail().isEmpty() ? "" : ": " + f.detail(),
            f.nativeCode() == 0 && f.nativeMessage().isEmpty() ? "" : "; native " + f.nativeCode() + " " + f.nativeMessage(),
            f.remediation().isEmpty() ? "" : "; fix: " + f.remediation());
      }
    });
    line(out, "Transfers: %d requested, %d completed, %d rejected, %d failed, %d timed out, %d in flight%s",
        s.counts().transfers(), s.counts().completed(), s.counts().rejected(), s.counts().failed(),
        s.counts().timedOut(), s.counts().inFlight(), s.counts().forgottenTransfers() == 0 ? ""
            : String.format(" (held by the fold; %d more ended earlier and were forgotten, keep-ended window)",
                s.counts().forgottenTransfers()));
    if (!s.endedByReason().isEmpty()) {
      line(out, "  not completed, by reason: " + String.join(", ", s.endedByReason().entrySet().stream()
          .map(e -> e.getKey() + " " + e.getValue()).toList()));
    }
    if (s.counts().lateOutcomes() > 0) {
      line(out, "  late outcomes: %d (an outcome after another producer had ended the transfer; first end kept)",
          s.counts().lateOutcomes());
    }
    for (var t : s.inFlight()) {
      line(out, "  in flight: %-16s %-10s %s -> %s, %s, requested %s, deadline %s", t.transferId(), t.status(),
          t.source(), t.destination(), t.parts().isEmpty() ? String.format("%,d B", t.bytes())
              : "parts " + String.join(", ", t.parts()), t.requestedAt(), t.deadline());
    }
  }

  /** Counts by kind, then the first {@code limit} anomalies listed. */
  public static void anomalies(AnomalyReport report, int limit, PrintStream out) {
    if (report.total() == 0) {
      line(out, "Anomalies: none");
      return;
    }
    line(out, "Anomalies (%d): %s", report.total(), report.counts());
    List<Anomaly> shown = report.anomalies().subList(0, Math.min(limit, report.anomalies().size()));
    for (Anomaly a : shown) {
      line(out, "  %-21s %-26s %s", a.kind(), a.position() == null ? "" : a.position(), a.message());
    }
    if (report.total() > shown.size()) {
      line(out, "  ... %d more (--json lists up to %d of each kind)", report.total() - shown.size(), 1_000);
    }
  }

  /** The summary, then each step. */
  public static void explanation(Explanation e, PrintStream out) {
    line(out, e.summary());
    if (!e.steps().isEmpty()) {
      out.println();
      line(out, "Events, in replay order:");
      for (var step : e.steps()) {
        line(out, "  %s  %-26s %s", step.time(), step.position(), step.text());
      }
    }
  }
}
