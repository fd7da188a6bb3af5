package io.kvfleet.control.coordinator;

import io.kvfleet.events.BackendCapability;
import io.kvfleet.events.Envelope;
import io.kvfleet.events.FleetEvent;
import io.kvfleet.events.LayoutComponent;
import io.kvfleet.events.MemoryType;
import io.kvfleet.events.ModelLayoutDeclared;
import io.kvfleet.events.PeerHeartbeat;
import io.kvfleet.events.PeerJoined;
import io.kvfleet.events.RegionKind;
import io.kvfleet.events.RegionRegistered;
import io.kvfleet.events.RegionSpec;
import io.kvfleet.events.RequestPart;
import io.kvfleet.events.TransferRequested;
import io.kvfleet.events.state.FleetState;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;
import java.util.stream.IntStream;

/** Two nodes serving a hybrid model (KV, conv and SSM state, aux), as the fold sees them, for contract tests. */
final class HybridLayouts {
  static final Instant NOW = Instant.parse("2026-11-30T12:00:00Z");
  static final String PREFILL = "prefill-0";
  static final String DECODE = "decode-0";

  /** How one component is cut on a node: {@code slots} pages or slots of {@code item} bytes per buffer. */
  record Cut(String name, RegionKind kind, int buffers, long item, int pageSize, String dtype, long slots) {
    Cut buffers(int n) {
      return new Cut(name, kind, n, item, pageSize, dtype, slots);
    }

    Cut item(long bytes) {
      return new Cut(name, kind, buffers, bytes, pageSize, dtype, slots);
    }

    Cut pageSize(int tokens) {
      return new Cut(name, kind, buffers, item, tokens, dtype, slots);
    }

    Cut dtype(String type) {
      return new Cut(name, kind, buffers, item, pageSize, type, slots);
    }

    Cut slots(long n) {
      return new Cut(name, kind, buffers, item, pageSize, dtype, n);
    }
  }

  static List<Cut> hybrid() {
    return List.of(
        new Cut("kv", RegionKind.KV, 4, 64, 16, "bfloat16", 8),
        new Cut("conv", RegionKind.STATE, 2, 32, 1, "bfloat16", 4),
        new Cut("ssm", RegionKind.STATE, 2, 48, 1, "float32", 4),
        new Cut("aux", RegionKind.AUX, 1, 16, 1, "int32", 4));
  }

  /** {@code cuts} with the one named {@code name} changed by {@code change} (or removed when it returns null). */
  static List<Cut> with(List<Cut> cuts, String name, UnaryOperator<Cut> change) {
    List<Cut> changed = new ArrayList<>();
    for (Cut c : cuts) {
      Cut next = c.name().equals(name) ? change.apply(c) : c;
      if (next != null) {
        changed.add(next);
      }
    }
    return changed;
  }

  private final List<Envelope> log = new ArrayList<>();

  HybridLayouts node(String node, long epoch, String model, int rank, int size, List<Cut> cuts) {
    var capability = new BackendCapability("ucx", true, "1", List.of(MemoryType.DRAM), List.of("tcp"), "");
    add(new PeerJoined(node, epoch, "127.0.0.1", "addr-" + node, List.of(capability)));
    add(new PeerHeartbeat(node, epoch, 60_000));
    List<LayoutComponent> components = new ArrayList<>();
    for (Cut c : cuts) {
      MemoryType memory = c.kind() == RegionKind.AUX ? MemoryType.DRAM : MemoryType.VRAM;
      List<String> ids = IntStream.range(0, c.buffers()).mapToObj(b -> c.name() + "-" + b).toList();
      for (int b = 0; b < c.buffers(); b++) {
        var spec = new RegionSpec(ids.get(b), c.kind(), memory, 0, 0x1000 + b * 0x10000L, c.item() * c.slots(),
            c.item(), c.name(), b);
        add(new RegionRegistered(node, epoch, spec, "ucx", "rkey-" + node + "-" + ids.get(b)));
      }
      components.add(new LayoutComponent(c.name(), c.kind(), memory, c.buffers(), c.item(), c.pageSize(), c.dtype(),
          IntStream.range(0, c.buffers()).boxed().toList(), ids));
    }
    add(new ModelLayoutDeclared(node, epoch, model, rank, size, components));
    return this;
  }

  /** Both nodes serving {@code cuts} of model m at TP 1. */
  HybridLayouts pair(List<Cut> source, List<Cut> destination) {
    return node(PREFILL, 3, "m", 0, 1, source).node(DECODE, 4, "m", 0, 1, destination);
  }

  HybridLayouts add(FleetEvent e) {
    log.add(new Envelope("e" + log.size(), "test", 1, log.size() + 1, NOW.minusSeconds(5), "", e));
    return this;
  }

  FleetState state() {
    return FleetState.fold(log);
  }

  /** The events written so far by {@code node}, in order (to publish them as that node would). */
  List<FleetEvent> eventsOf(String node) {
    return log.stream().map(Envelope::data).filter(e -> io.kvfleet.events.Topics.keyOf(e).equals(node)).toList();
  }

  /** A request moving slot {@code from} to slot {@code to} of every component in {@code cuts}. */
  static TransferRequested request(List<Cut> cuts, int from, int to) {
    return request(cuts.stream().map(c -> new RequestPart(c.name(), List.of(from), List.of(to))).toList(), List.of());
  }

  static TransferRequested request(List<RequestPart> parts, List<String> recomputed) {
    return TransferRequested.ofRequest("t1", "room-1", PREFILL, 3, DECODE, 4, parts, recomputed,
        NOW.plusSeconds(10).toEpochMilli(), true);
  }
}
