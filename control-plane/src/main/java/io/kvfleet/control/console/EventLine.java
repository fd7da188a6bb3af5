package io.kvfleet.control.console;

import io.kvfleet.events.BackendCapability;
import io.kvfleet.events.Envelope;
import io.kvfleet.events.FleetEvent;
import io.kvfleet.events.ModelLayoutDeclared;
import io.kvfleet.events.OpaqueEvent;
import io.kvfleet.events.PeerHeartbeat;
import io.kvfleet.events.PeerJoined;
import io.kvfleet.events.PeerLeft;
import io.kvfleet.events.PeerLost;
import io.kvfleet.events.RegionDeregistered;
import io.kvfleet.events.RegionRegistered;
import io.kvfleet.events.RegionSkipped;
import io.kvfleet.events.RegionSpec;
import io.kvfleet.events.RegistrationDecision;
import io.kvfleet.events.RegistrationFailed;
import io.kvfleet.events.TransferCompleted;
import io.kvfleet.events.TransferDispatched;
import io.kvfleet.events.TransferFailed;
import io.kvfleet.events.TransferRejected;
import io.kvfleet.events.TransferRequested;
import io.kvfleet.events.TransferTimedOut;
import io.kvfleet.events.replay.Text;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.stream.Collectors;

/** One human-readable line per event, for the console of {@code demo} and {@code tail}. */
public final class EventLine {
  private static final DateTimeFormatter TIME =
      DateTimeFormatter.ofPattern("HH:mm:ss.SSS").withZone(ZoneId.systemDefault());

  private EventLine() {}

  /** {@code time producer#seq  type  detail}. */
  public static String format(Envelope e) {
    // One event, one line: a line break a writer put in a field does not start a line of its own, and a bidi,
    // zero-width or separator mark does not reorder or hide what a reader sees (Terminal escapes the controls).
    return oneLine(String.format("%s %-22s %-28s %s", TIME.format(e.time()),
        e.producer() + "#" + e.sequence(), shortType(e.type()), detail(e.data())));
  }

  /** The text as one line: line breaks, bidi, zero-width and separator marks shown as {@code \\uXXXX}. */
  public static String oneLine(String line) {
    var out = new StringBuilder(line.length());
    line.chars().forEach(c -> {
      int kind = Character.getType(c);
      if (c == '\n' || kind == Character.FORMAT || kind == Character.LINE_SEPARATOR
          || kind == Character.PARAGRAPH_SEPARATOR) {
        out.append(String.format("\\u%04x", c));
      } else {
        out.append((char) c);
      }
    });
    return out.toString();
  }

  private static String shortType(String wireType) {
    return wireType.startsWith("io.kvfleet.") ? wireType.substring("io.kvfleet.".length()) : wireType;
  }

  static String detail(FleetEvent event) {
    return switch (event) {
      case PeerJoined e -> e.nodeId() + " epoch " + e.epoch() + " on " + e.host() + "  backends: "
          + e.capabilities().stream().map(EventLine::capability).collect(Collectors.joining(", "));
      case PeerHeartbeat e -> e.nodeId() + " epoch " + e.epoch() + " lease " + e.leaseMillis() + " ms";
      case PeerLost e -> e.nodeId() + " epoch " + e.epoch() + " LOST: " + e.reason();
      case PeerLeft e -> e.nodeId() + " epoch " + e.epoch() + " left: " + e.reason();
      case RegionRegistered e -> e.nodeId() + "/" + region(e.region()) + " via " + e.backend()
          + (e.remoteKey().isEmpty() ? "" : " rkey " + abbreviate(e.remoteKey()));
      case RegistrationFailed e -> e.nodeId() + "/" + region(e.region()) + " FAILED on " + e.backend()
          + ": " + e.reason() + (e.nativeMessage().isEmpty() ? "" : " (" + e.nativeCode() + ": " + e.nativeMessage() + ")")
          + " - " + e.detail() + "; fix: " + e.remediation();
      case RegionSkipped e -> e.nodeId() + "/" + region(e.region()) + " skipped: " + e.reason();
      case RegionDeregistered e -> e.nodeId() + "/" + e.regionId() + " released by " + e.backend();
      case RegistrationDecision e -> e.nodeId() + " " + e.component() + " policy " + e.policy() + ": " + e.outcome();
      case ModelLayoutDeclared e -> e.nodeId() + " epoch " + e.epoch() + " layout " + e.modelId() + " TP "
          + e.tpRank() + "/" + e.tpSize() + ": " + e.components().stream().map(c -> c.name() + "x" + c.buffers()).toList();
      case TransferRequested e when e.requestForm() -> e.transferId() + " request " + e.requestId() + " "
          + e.sourceNode() + " -> " + e.destinationNode() + " parts "
          + e.parts().stream().map(io.kvfleet.events.RequestPart::component).toList()
          + (e.recomputed().isEmpty() ? "" : " recomputed " + e.recomputed());
      case TransferRequested e -> e.transferId() + " " + e.op() + " " + e.sourceNode() + "/" + e.sourceRegion()
          + " -> " + e.destinationNode() + "/" + e.destinationRegion() + " " + e.ranges().size() + " ranges, "
          + Text.bytes(e.totalBytes());
      case TransferRejected e -> e.transferId() + " REJECTED " + e.reason() + ": " + e.detail();
      case TransferDispatched e -> e.transferId() + " to " + e.sourceNode() + " by " + e.coordinatorId();
      case TransferCompleted e -> e.transferId() + " " + Text.bytes(e.bytes()) + " in "
          + String.format("%.3f ms", e.durationNanos() / 1e6) + " via " + e.path()
          + (e.checksum().isEmpty() ? "" : " crc32c " + e.checksum())
          + (e.parts().isEmpty() ? "" : " parts " + e.parts().stream()
              .map(p -> p.component() + " " + Text.bytes(p.bytes()) + (p.checksum().isEmpty() ? "" : " crc32c " + p.checksum()))
              .toList());
      case TransferFailed e -> e.transferId() + " FAILED " + e.reason() + ": " + e.detail();
      case TransferTimedOut e -> e.transferId() + " TIMED OUT (deadline " + e.deadlineMillis() + ")";
      case OpaqueEvent e -> "(unreadable by this version: " + e.wireType() + " v" + e.schemaVersion() + ")";
    };
  }

  private static String capability(BackendCapability c) {
    return c.backend() + (c.available() ? c.memoryTypes().toString() : " unavailable (" + c.detail() + ")");
  }

  private static String region(RegionSpec r) {
    return r.regionId() + " [" + r.kind() + " " + r.memoryType()
        + (r.device() >= 0 ? " dev " + r.device() : "") + " " + Text.bytes(r.length())
        + " @0x" + Long.toHexString(r.address()) + "]";
  }

  private static String abbreviate(String s) {
    return s.length() <= 16 ? s : s.substring(0, 16) + "…";
  }
}
