package io.kvfleet.control.replay.bench;

import io.kvfleet.events.BackendCapability;
import io.kvfleet.events.ByteRange;
import io.kvfleet.events.Envelope;
import io.kvfleet.events.FleetEvent;
import io.kvfleet.events.MemoryType;
import io.kvfleet.events.PeerHeartbeat;
import io.kvfleet.events.PeerJoined;
import io.kvfleet.events.PeerLeft;
import io.kvfleet.events.ReasonCodes;
import io.kvfleet.events.RegionKind;
import io.kvfleet.events.RegionRegistered;
import io.kvfleet.events.RegionSkipped;
import io.kvfleet.events.RegionSpec;
import io.kvfleet.events.RegistrationFailed;
import io.kvfleet.events.TransferOp;
import io.kvfleet.events.TransferRequested;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * A deterministic fleet's log for benchmarks: four prefill and four decode nodes join and register
 * KV, aux and state buffers (the state tensors in VRAM fail on a UCX without CUDA, one buffer is
 * skipped), heartbeat every second, and a router streams transfers that are dispatched and
 * completed, rejected, failed or timed out; now and then a decode node is lost, its in-flight
 * transfers fail, it rejoins at a new epoch and a late request naming the old one is rejected.
 * At the end every transfer has ended and every node has left, so a coordinator reading it has
 * nothing to decide. One event per simulated millisecond.
 */
public final class SyntheticFleet {
  static final int NODES_PER_ROLE = 4;
  static final long PAGE = 16 * 1024;

  final Random random = new Random(20_260_601);
  final java.util.function.Consumer<Envelope> log;
  long emitted;
  final Map<String, Long> epochs = new HashMap<>();
  final Map<String, Long> sequences = new HashMap<>();
  final Transfers transfers = new Transfers(this);
  Instant now;
  long nextEpoch = 1_000;

  private SyntheticFleet(Instant start, java.util.function.Consumer<Envelope> log) {
    this.now = start;
    this.log = log;
  }

  /** About {@code events} events (a few more, to end every transfer and let every node leave), from {@code start}. */
  public static List<Envelope> generate(int events, Instant start) {
    var all = new ArrayList<Envelope>();
    generate(events, start, all::add);
    return all;
  }

  /** {@link #generate(int, Instant)}, each event handed to {@code sink} as it is made (a long log needs no list). */
  public static void generate(long events, Instant start, java.util.function.Consumer<Envelope> sink) {
    var fleet = new SyntheticFleet(start, sink);
    for (int i = 0; i < NODES_PER_ROLE; i++) {
      fleet.join(prefill(i));
      fleet.join(decode(i));
    }
    long step = 0;
    while (fleet.emitted < events) {
      step++;
      if (step % 250 == 0) {
        fleet.heartbeats();
      }
      if (step % 50_000 == 0) {
        fleet.transfers.crash(decode((int) (step / 50_000) % NODES_PER_ROLE));
      }
      fleet.transfers.step();
    }
    fleet.transfers.drain();
    fleet.epochs.keySet().stream().sorted().toList().forEach(n -> fleet.emit(n, new PeerLeft(n, fleet.epochs.get(n), ReasonCodes.SHUTDOWN)));
  }

  static String prefill(int i) {
    return "prefill-" + i;
  }

  static String decode(int i) {
    return "decode-" + i;
  }

  void join(String node) {
    long epoch = nextEpoch++;
    epochs.put(node, epoch);
    var ucx = new BackendCapability("ucx", true, "1.18.0", List.of(MemoryType.DRAM), List.of("tcp", "sysv", "posix"),
        "built without CUDA support: VRAM cannot be registered");
    var host = new BackendCapability("host", true, "", List.of(MemoryType.DRAM), List.of("memcpy"), "");
    emit(node, new PeerJoined(node, epoch, "10.0.0." + (node.hashCode() & 0x7f), "AAECAwQFBgc=", List.of(ucx, host)));
    for (int layer = 0; layer < 4; layer++) {
      var kv = new RegionSpec("kv-" + layer, RegionKind.KV, MemoryType.DRAM, -1, 0x7f00_0000_0000L + layer * (64L << 20),
          64L << 20, PAGE, "kv_data", layer);
      emit(node, new RegionRegistered(node, epoch, kv, "ucx", "cmtleS0" + layer));
      emit(node, new RegionRegistered(node, epoch, kv, "host", ""));
    }
    var state = new RegionSpec("state-0", RegionKind.STATE, MemoryType.VRAM, 0, 0x7e00_0000_0000L, 16L << 20, 0,
        "state_data", 0);
    emit(node, new RegistrationFailed(node, epoch, state, "ucx", ReasonCodes.MEMORY_TYPE_UNSUPPORTED,
        "no memory domain can register cuda memory", -4, "UCS_ERR_UNSUPPORTED", ucx,
        "install a UCX build with CUDA support (ucx_info -d lists cuda_copy)"));
    emit(node, new RegionSkipped(node, epoch, new RegionSpec("aux-1", RegionKind.AUX, MemoryType.DRAM, -1, 0, 0, 0,
        "aux_data", 1), "zero length"));
  }

  void heartbeats() {
    epochs.keySet().stream().sorted().toList()
        .forEach(n -> emit(n, new PeerHeartbeat(n, epochs.get(n), 3_000)));
  }

  TransferRequested request(String id, String source, String destination, long destinationEpoch, boolean outOfBounds) {
    int pages = 1 + random.nextInt(4);
    var ranges = new ArrayList<ByteRange>();
    for (int i = 0; i < pages; i++) {
      long to = outOfBounds && i == 0 ? (64L << 20) : random.nextInt(4096) * PAGE;
      ranges.add(new ByteRange(random.nextInt(4096) * PAGE, to, PAGE));
    }
    return new TransferRequested(id, source, epochs.get(source), "kv-" + random.nextInt(4), destination,
        destinationEpoch, "kv-0", TransferOp.WRITE, ranges, now.plusSeconds(10).toEpochMilli(), true);
  }

  /** Appends an event written by {@code producer} (a node writes at its current epoch). */
  void emit(String producer, FleetEvent event) {
    long epoch = epochs.getOrDefault(producer, 1L);
    long sequence = sequences.merge(producer + "@" + epoch, 1L, Long::sum);
    log.accept(new Envelope("e-" + emitted++, producer, epoch, sequence, now, event.subject(), event));
    now = now.plusMillis(1);
  }
}
