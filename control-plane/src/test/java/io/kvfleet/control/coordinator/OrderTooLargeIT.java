package io.kvfleet.control.coordinator;

import static io.kvfleet.control.coordinator.HybridLayouts.DECODE;
import static io.kvfleet.control.coordinator.HybridLayouts.PREFILL;
import static org.assertj.core.api.Assertions.assertThat;

import io.kvfleet.control.kafka.EventPublisher;
import io.kvfleet.events.ReasonCodes;
import io.kvfleet.events.RegionKind;
import io.kvfleet.events.RequestPart;
import io.kvfleet.events.TransferDispatched;
import io.kvfleet.events.TransferRejected;
import io.kvfleet.events.TransferRequested;
import io.kvfleet.events.state.TransferStatus;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A request whose order no Kafka record can hold: 2,000 scattered pages over 64 buffers is 128,000 byte ranges,
 * several MB as a dispatch, from a 20 KB request (refused before it is built); 296 far pages are 18,944 longer
 * ranges, 1.2 MB (built, and refused by the publisher). The dispatch failed in the producer, the coordinator
 * logged that Kafka "may or may not have it", the transfer waited for its deadline and the coordinator's sequence
 * had a gap.
 */
class OrderTooLargeIT {
  private static final Duration WAIT = Duration.ofSeconds(60);
  private final Fleet fleet = new Fleet();

  @AfterEach
  void close() throws Exception {
    fleet.close();
  }

  @Test
  void aRequestWhoseOrderNoRecordHoldsIsRejectedWithItsSizeAndTheNextIsDispatched() throws Exception {
    fleet.startCoordinator();
    var cuts = List.of(new HybridLayouts.Cut("kv", RegionKind.KV, 64, 64, 16, "bfloat16", 8_192));
    var layouts = new HybridLayouts().pair(cuts, cuts);
    publishAsNode(layouts, PREFILL, 3);
    publishAsNode(layouts, DECODE, 4);
    fleet.awaitState("both layouts folded", WAIT, s -> s.layout(PREFILL).isPresent() && s.layout(DECODE).isPresent());

    // More ranges than any record holds: refused before the order is built.
    List<Integer> scattered = IntStream.range(0, 2_000).map(i -> 2 * i).boxed().toList();
    // Fewer ranges than that, but long ones: the order is built, and the publisher refuses its 1.2 MB.
    List<Integer> far = IntStream.range(0, 296).map(i -> 2_000 + 20 * i).boxed().toList();
    fleet.route(request("t-huge", scattered));
    fleet.route(request("t-large", far));
    fleet.route(request("t-small", List.of(0, 1)));

    fleet.awaitState("t-huge and t-large rejected, t-small dispatched", WAIT, s ->
        s.transfer("t-huge").map(t -> t.status() == TransferStatus.REJECTED).orElse(false)
            && s.transfer("t-large").map(t -> t.status() == TransferStatus.REJECTED).orElse(false)
            && s.transfer("t-small").map(t -> t.status() != TransferStatus.REQUESTED).orElse(false));
    assertThat(rejection("t-huge")).contains("64 buffers, 128000 byte ranges",
        "a Kafka record holds at most " + Expansion.MOST_RANGES + " byte ranges", "split it into smaller requests");
    assertThat(rejection("t-large")).contains("64 buffers, 18944 byte ranges", "over the 1047552",
        "split it into smaller requests");
    assertThat(fleet.events("t-huge", TransferDispatched.class::isInstance)).isEmpty();
    assertThat(fleet.events("t-large", TransferDispatched.class::isInstance)).isEmpty();
    assertThat(fleet.events("t-small", TransferDispatched.class::isInstance)).hasSize(1);
    // The refused dispatch took no number: the coordinator's sequences run without a gap.
    var sequences = fleet.log.envelopes().stream().filter(e -> e.producer().startsWith("coordinator"))
        .mapToLong(e -> e.sequence()).sorted().toArray();
    assertThat(sequences).isNotEmpty()
        .containsExactly(java.util.stream.LongStream.rangeClosed(1, sequences.length).toArray());
  }

  /** The detail of the one rejection of {@code id}, which must be ORDER_TOO_LARGE. */
  private String rejection(String id) {
    var rejected = fleet.events(id, TransferRejected.class::isInstance);
    assertThat(rejected).as(id + " rejections").hasSize(1);
    var r = (TransferRejected) rejected.getFirst();
    assertThat(r.reason()).isEqualTo(ReasonCodes.ORDER_TOO_LARGE);
    return r.detail();
  }

  private void publishAsNode(HybridLayouts layouts, String node, long epoch) throws Exception {
    try (var publisher = new EventPublisher(fleet.kafka.bootstrapServers(), node, epoch, Clock.systemUTC())) {
      for (var event : layouts.eventsOf(node)) {
        publisher.publish(event, node).get(30, TimeUnit.SECONDS);
      }
    }
  }

  private static TransferRequested request(String id, List<Integer> indices) {
    return TransferRequested.ofRequest(id, "room-" + id, PREFILL, 3, DECODE, 4,
        List.of(new RequestPart("kv", indices, indices)), List.of(), System.currentTimeMillis() + 30_000, false);
  }
}
