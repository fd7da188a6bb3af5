package io.kvfleet.control.demo;

import static org.assertj.core.api.Assertions.assertThat;

import io.kvfleet.control.kafka.Await;
import io.kvfleet.control.kafka.Collected;
import io.kvfleet.control.kafka.EmbeddedKafka;
import io.kvfleet.control.kafka.EventTail;
import io.kvfleet.control.kafka.FleetTopics;
import io.kvfleet.events.Topics;
import io.kvfleet.events.state.FleetState;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The demo fleet joins, registers and moves KV pages and hybrid-model request transfers, and every
 * event goes through Kafka.
 */
class DemoFleetIT {

  @Test
  void demoFleetJoinsRegistersAndCompletesTransfersThroughKafka() throws Exception {
    try (var kafka = EmbeddedKafka.startInTempDir()) {
      FleetTopics.ensure(kafka.bootstrapServers(), (short) 1);
      var got = new Collected();
      try (var tail = EventTail.start(kafka.bootstrapServers(), Topics.ALL, got::add)) {
        try (var fleet = new DemoFleet(kafka.bootstrapServers())) {
          fleet.start(20);
          Await.until("20 transfers, among them request transfers to both decode nodes, to end", Duration.ofSeconds(90),
              () -> {
                var s = FleetState.fold(got.envelopes());
                return s.counts().completed() + s.counts().rejected() >= 20
                    && s.transfers().stream().filter(t -> t.request().requestForm())
                        .map(t -> t.status().name()).distinct().filter(n -> !n.equals("REQUESTED")
                            && !n.equals("DISPATCHED")).count() >= 2;
              });
        }
        Await.until("both agents to leave", Duration.ofSeconds(30),
            () -> FleetState.fold(got.envelopes()).counts().alivePeers() == 0);
      }
      var state = FleetState.fold(got.envelopes());
      var counts = state.counts();
      assertThat(got.malformed()).isZero();
      assertThat(counts.peers()).isEqualTo(3);
      assertThat(counts.staleRegions()).as("the 4 regions registered and the hybrid model's 17 + 13 + 17, void once"
          + " the nodes left").isEqualTo(4 + 17 + 13 + 17);
      assertThat(counts.liveRegions()).isZero();
      assertThat(counts.skippedRegions()).as("one null aux entry per node, one null state entry").isEqualTo(3);
      assertThat(counts.completed()).isPositive();
      assertThat(counts.rejected()).as("every tenth request is out of bounds").isPositive();
      assertThat(state.failures()).as("only the VRAM state tensors fail here").isNotEmpty()
          .allSatisfy(f -> assertThat(f.region().component()).isEqualTo("state_data"));
      assertThat(state.decisions()).singleElement()
          .satisfies(d -> assertThat(d.policy()).isEqualTo("FALLBACK_STAGED"));
      assertThat(counts.violations()).isZero();
      assertThat(counts.inFlight()).as("the demo lets its transfers end before its nodes leave").isZero();
      assertThat(counts.missingSequences()).isZero();
      // Every tenth request is out of bounds; requests still in Kafka when the agents leave find them gone.
      assertThat(state.transfers()).filteredOn(t -> !t.request().requestForm())
          .filteredOn(t -> t.status().name().equals("REJECTED"))
          .extracting(t -> t.reason()).contains("OUT_OF_BOUNDS").isSubsetOf("OUT_OF_BOUNDS", "PEER_NOT_ALIVE");
      // Request transfers to decode-0 (conv state only) are rejected with the explanation; decode-1's complete.
      var requests = state.transfers().stream().filter(t -> t.request().requestForm()).toList();
      assertThat(requests).filteredOn(t -> t.request().destinationNode().equals("decode-0"))
          .filteredOn(t -> t.status().isTerminal()).isNotEmpty()
          .allSatisfy(t -> assertThat(t.reason() + ": " + t.detail()).isIn(
              "COMPONENT_ONE_SIDED: component 'ssm' (STATE, 4 buffers) is in prefill-0's layout but decode-0"
                  + " registered no ssm state; decode-0 has [kv, conv, aux]", "PEER_NOT_ALIVE: " + t.detail()));
      assertThat(requests).filteredOn(t -> t.request().destinationNode().equals("decode-1"))
          .extracting(t -> t.status().name()).contains("COMPLETED");
    }
  }
}
