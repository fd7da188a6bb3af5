package io.kvfleet.control.bench;

import io.kvfleet.control.KvfleetException;
import io.kvfleet.control.kafka.EventTail;
import io.kvfleet.events.ByteRange;
import io.kvfleet.events.RegionKind;
import io.kvfleet.events.RequestPart;
import io.kvfleet.events.Topics;
import io.kvfleet.events.TransferCompleted;
import io.kvfleet.events.TransferFailed;
import io.kvfleet.events.TransferOp;
import io.kvfleet.events.TransferRejected;
import io.kvfleet.events.TransferRequested;
import io.kvfleet.events.TransferTimedOut;
import io.kvfleet.events.codec.Decoded;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@code bench request}: inference requests of a hybrid model (61 layers of KV, 16 pages each, plus
 * conv and SSM state and aux) moved as one request transfer each, against the same bytes as one
 * single-region transfer per buffer, in the same run and fleet, one request in flight at a time.
 * Reports bytes per second and control-plane events (on {@code kvfleet.transfers}) per request.
 */
public final class RequestBench {
  /** 61 layers of KV with 16 KiB pages, conv and SSM state per layer, one aux buffer. */
  static final List<RequestFleet.Cut> MODEL = List.of(
      new RequestFleet.Cut("kv", RegionKind.KV, 61, 16 * 1024, 32),
      new RequestFleet.Cut("conv", RegionKind.STATE, 61, 4 * 1024, 8),
      new RequestFleet.Cut("ssm", RegionKind.STATE, 61, 64 * 1024, 8),
      new RequestFleet.Cut("aux", RegionKind.AUX, 1, 1024, 8));
  static final int PAGES = 16;

  /** One side's figures: requests moved, their bytes, the time they took, the events they made. */
  public record Side(String name, int requests, long bytes, long nanos, long events, long engineNanos) {
    double bytesPerSecond() {
      return bytes / (nanos / 1e9);
    }

    /** Bytes per second of the engine alone: the moves' own durations, as the completions report them. */
    double engineBytesPerSecond() {
      return bytes / (engineNanos / 1e9);
    }

    double eventsPerRequest() {
      return (double) events / requests;
    }
  }

  private final ConcurrentHashMap<String, Boolean> ended = new ConcurrentHashMap<>();
  private final ConcurrentHashMap<String, AtomicLong> events = new ConcurrentHashMap<>();
  /** Transfer id to the move's duration on the source node, from its completion. */
  private final ConcurrentHashMap<String, Long> moving = new ConcurrentHashMap<>();
  private final Random random = new Random(61);

  /** Runs {@code rounds} rounds of {@code requests} requests on each side, alternating; prints and answers both sides. */
  public static List<Side> run(int requests, int rounds, PrintStream out) throws Exception {
    var bench = new RequestBench();
    try (var fleet = new RequestFleet(MODEL);
        var tail = EventTail.startFromNow(fleet.kafka.bootstrapServers(), List.of(Topics.TRANSFERS), bench::onRecord)) {
      bench.warmUp(fleet);
      var whole = new Side("one request transfer", 0, 0, 0, 0, 0);
      var perBuffer = new Side("one transfer per buffer", 0, 0, 0, 0, 0);
      for (int round = 0; round < rounds; round++) {
        whole = add(whole, bench.side(fleet, "w" + round + "-", requests, true));
        perBuffer = add(perBuffer, bench.side(fleet, "b" + round + "-", requests, false));
      }
      Report.print(out, whole, perBuffer);
      return List.of(whole, perBuffer);
    }
  }

  private static Side add(Side a, Side b) {
    return new Side(a.name(), a.requests() + b.requests(), a.bytes() + b.bytes(), a.nanos() + b.nanos(),
        a.events() + b.events(), a.engineNanos() + b.engineNanos());
  }

  private void warmUp(RequestFleet fleet) throws Exception {
    for (int i = 0; i < 3; i++) {
      side(fleet, "warm" + i + "-", 2, true);
      side(fleet, "warmb" + i + "-", 1, false);
    }
  }

  /** {@code requests} requests one after another, each as one request transfer or as one transfer per buffer. */
  private Side side(RequestFleet fleet, String prefix, int requests, boolean whole) throws Exception {
    long bytes = 0;
    long started = System.nanoTime();
    for (int r = 0; r < requests; r++) {
      var transfers = whole ? List.of(requestTransfer(fleet, prefix + r)) : perBuffer(fleet, prefix + r + "-");
      for (var t : transfers) {
        fleet.router.publish(t, t.transferId());
      }
      for (var t : transfers) {
        awaitEnd(t.transferId());
      }
      bytes += bytesOf(transfers.getFirst().requestForm() ? transfers.getFirst() : null, transfers);
    }
    long nanos = System.nanoTime() - started;
    long counted = events.entrySet().stream().filter(e -> e.getKey().startsWith(prefix))
        .mapToLong(e -> e.getValue().get()).sum();
    long engine = moving.entrySet().stream().filter(e -> e.getKey().startsWith(prefix))
        .mapToLong(e -> e.getValue()).sum();
    return new Side(whole ? "one request transfer" : "one transfer per buffer", requests, bytes, nanos, counted,
        engine);
  }

  private TransferRequested requestTransfer(RequestFleet fleet, String id) {
    List<Integer> src = pages();
    List<Integer> dst = pages();
    int slot = random.nextInt(8);
    int into = random.nextInt(8);
    var parts = List.of(new RequestPart("kv", src, dst), new RequestPart("conv", List.of(slot), List.of(into)),
        new RequestPart("ssm", List.of(slot), List.of(into)), new RequestPart("aux", List.of(slot), List.of(into)));
    return TransferRequested.ofRequest(id, id, RequestFleet.PREFILL, fleet.epochs.get(RequestFleet.PREFILL),
        RequestFleet.DECODE, fleet.epochs.get(RequestFleet.DECODE), parts, List.of(), deadline(), false);
  }

  /** The same bytes as {@link #requestTransfer}: one single-region transfer per buffer of every component. */
  private List<TransferRequested> perBuffer(RequestFleet fleet, String prefix) {
    List<Integer> src = pages();
    List<Integer> dst = pages();
    int slot = random.nextInt(8);
    int into = random.nextInt(8);
    List<TransferRequested> all = new ArrayList<>();
    for (var c : MODEL) {
      for (int b = 0; b < c.buffers(); b++) {
        List<ByteRange> ranges = new ArrayList<>();
        if (c.kind() == RegionKind.KV) {
          for (int i = 0; i < src.size(); i++) {
            ranges.add(new ByteRange(src.get(i) * c.item(), dst.get(i) * c.item(), c.item()));
          }
        } else {
          ranges.add(new ByteRange(slot * c.item(), into * c.item(), c.item()));
        }
        String region = c.name() + "-" + b;
        all.add(new TransferRequested(prefix + c.name() + b, RequestFleet.PREFILL,
            fleet.epochs.get(RequestFleet.PREFILL), region, RequestFleet.DECODE, fleet.epochs.get(RequestFleet.DECODE),
            region, TransferOp.WRITE, ranges, deadline(), false));
      }
    }
    return all;
  }

  private List<Integer> pages() {
    var all = new ArrayList<Integer>();
    for (int i = 0; i < 32; i++) {
      all.add(i);
    }
    java.util.Collections.shuffle(all, random);
    return List.copyOf(all.subList(0, PAGES));
  }

  private static long bytesOf(TransferRequested request, List<TransferRequested> transfers) {
    if (request == null) {
      return transfers.stream().mapToLong(TransferRequested::totalBytes).sum();
    }
    long sum = 0;
    for (var part : request.parts()) {
      var cut = MODEL.stream().filter(c -> c.name().equals(part.component())).findFirst().orElseThrow();
      sum += cut.buffers() * part.sourceIndices().size() * cut.item();
    }
    return sum;
  }

  private static long deadline() {
    return System.currentTimeMillis() + 60_000;
  }

  private void awaitEnd(String transferId) throws InterruptedException {
    long until = System.nanoTime() + 60_000_000_000L;
    while (!ended.containsKey(transferId)) {
      if (System.nanoTime() > until) {
        throw KvfleetException.benchFailed("transfer " + transferId + " did not end within 60 s", null);
      }
      Thread.onSpinWait();
      Thread.sleep(0, 200_000);
    }
    if (!ended.get(transferId)) {
      throw KvfleetException.benchFailed("transfer " + transferId + " did not complete", null);
    }
  }

  private void onRecord(org.apache.kafka.clients.consumer.ConsumerRecord<String, Decoded> record) {
    if (!(record.value() instanceof Decoded.Event e)) {
      return;
    }
    String id = e.envelope().data().subject();
    events.computeIfAbsent(id, k -> new AtomicLong()).incrementAndGet();
    switch (e.envelope().data()) {
      case TransferCompleted c -> {
        moving.put(id, c.durationNanos());
        ended.put(id, true);
      }
      case TransferFailed f -> ended.put(id, false);
      case TransferRejected f -> ended.put(id, false);
      case TransferTimedOut f -> ended.put(id, false);
      default -> { } // requested, dispatched: not an end
    }
  }

  /** The two sides and their ratios, as text. */
  static final class Report {
    private Report() {}

    static void print(PrintStream out, Side whole, Side perBuffer) {
      out.printf("%-26s %9s %10s %10s %12s %16s %15s%n", "side", "requests", "MiB", "MiB/s", "ms/request",
          "engine MiB/s", "events/request");
      for (Side s : List.of(whole, perBuffer)) {
        out.printf("%-26s %9d %10.1f %10.1f %12.2f %16.1f %15.1f%n", s.name(), s.requests(), s.bytes() / 1048576.0,
            s.bytesPerSecond() / 1048576.0, s.nanos() / 1e6 / s.requests(), s.engineBytesPerSecond() / 1048576.0,
            s.eventsPerRequest());
      }
      out.printf("ratio (request transfer / per buffer): bytes/s %.2f (engine alone %.2f), events per request %.4f"
              + " (1 / %.0f)%n", whole.bytesPerSecond() / perBuffer.bytesPerSecond(),
          whole.engineBytesPerSecond() / perBuffer.engineBytesPerSecond(),
          whole.eventsPerRequest() / perBuffer.eventsPerRequest(), perBuffer.eventsPerRequest() / whole.eventsPerRequest());
    }
  }
}
