package io.kvfleet.control.coordinator;

import static org.assertj.core.api.Assertions.assertThat;

import io.kvfleet.control.agent.Component;
import io.kvfleet.control.dataplane.EngineDataPlane;
import io.kvfleet.control.agent.RegistrationPolicy;
import io.kvfleet.control.agent.ServedComponent;
import io.kvfleet.control.agent.ServedModel;
import io.kvfleet.events.MemoryType;
import io.kvfleet.events.PartOutcome;
import io.kvfleet.events.ReasonCodes;
import io.kvfleet.events.RegionKind;
import io.kvfleet.events.RequestPart;
import io.kvfleet.events.TransferCompleted;
import io.kvfleet.events.TransferRejected;
import io.kvfleet.events.TransferRequested;
import io.kvfleet.events.state.TransferStatus;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A hybrid-model node pair moves request transfers (KV pages of every layer, conv and SSM state
 * slots, the aux slot) over the real broker, coordinator, agents and native engines, and the
 * destination bytes of every component match; a decode node that registered the conv state but not
 * the SSM state gets every request rejected with the explanation and no byte written.
 */
class RequestTransferIT {
  /** name, kind, buffers, item length, slots per buffer. */
  private record Cut(String name, RegionKind kind, int buffers, long item, int slots) {}

  private static final List<Cut> HYBRID = List.of(
      new Cut("kv", RegionKind.KV, 6, 4096, 16), new Cut("conv", RegionKind.STATE, 3, 1024, 8),
      new Cut("ssm", RegionKind.STATE, 3, 8192, 8), new Cut("aux", RegionKind.AUX, 1, 256, 8));

  private final Arena arena = Arena.ofShared();
  /** Node to component name to its buffers. */
  private final Map<String, Map<String, List<MemorySegment>>> memory = new HashMap<>();
  private Fleet fleet;
  private final Map<String, Long> epochs = new HashMap<>();

  @BeforeEach
  void startTheFleet() throws Exception {
    fleet = new Fleet();
    fleet.startCoordinator();
    startNode("prefill-0", (byte) 1, HYBRID);
    startNode("decode-0", (byte) 0, HYBRID);
    startNode("decode-conv-only", (byte) 0, HYBRID.stream().filter(c -> !c.name().equals("ssm")).toList());
    fleet.awaitState("three layouts declared", Duration.ofSeconds(60), s -> s.layout("prefill-0").isPresent()
        && s.layout("decode-0").isPresent() && s.layout("decode-conv-only").isPresent());
  }

  @AfterEach
  void stopTheFleet() throws Exception {
    fleet.close();
    arena.close();
  }

  @Test
  void movesRequestTransfersAndTheDestinationBytesOfEveryComponentMatch() throws Exception {
    List<TransferRequested> requests = new ArrayList<>();
    for (int r = 0; r < 3; r++) {
      int page = r * 3;
      int slot = r;
      requests.add(request("req-" + r, "decode-0", List.of(
          new RequestPart("kv", List.of(page, page + 1, page + 2), List.of(15 - page, 14 - page, 13 - page)),
          new RequestPart("conv", List.of(slot), List.of(7 - slot)),
          new RequestPart("ssm", List.of(slot), List.of(7 - slot)),
          new RequestPart("aux", List.of(slot), List.of(7 - slot)))));
    }
    for (var request : requests) {
      fleet.route(request);
    }
    fleet.awaitState("three request transfers ended", Duration.ofSeconds(60), s -> requests.stream()
        .allMatch(q -> s.transfer(q.transferId()).map(t -> t.status().isTerminal()).orElse(false)));

    for (var request : requests) {
      assertThat(fleet.state().transfer(request.transferId()).orElseThrow().status())
          .as(fleet.state().transfer(request.transferId()).orElseThrow().detail()).isEqualTo(TransferStatus.COMPLETED);
      var completed = (TransferCompleted) fleet.events(request.transferId(), e -> e instanceof TransferCompleted)
          .getFirst();
      assertThat(completed.parts()).extracting(PartOutcome::component).containsExactly("kv", "conv", "ssm", "aux");
      assertThat(completed.path()).as("one native batch (one path) for every part").doesNotContain(",");
      for (RequestPart part : request.parts()) {
        var cut = HYBRID.stream().filter(c -> c.name().equals(part.component())).findFirst().orElseThrow();
        var crc = new CRC32C();
        for (int b = 0; b < cut.buffers(); b++) {
          var from = memory.get("prefill-0").get(cut.name()).get(b);
          var to = memory.get("decode-0").get(cut.name()).get(b);
          for (int i = 0; i < part.sourceIndices().size(); i++) {
            var sent = from.asSlice(part.sourceIndices().get(i) * cut.item(), cut.item());
            var landed = to.asSlice(part.destinationIndices().get(i) * cut.item(), cut.item());
            assertThat(landed.mismatch(sent)).as("%s buffer %d index %d", cut.name(), b, i).isEqualTo(-1L);
            crc.update(sent.asByteBuffer());
          }
        }
        var outcome = completed.parts().stream().filter(p -> p.component().equals(cut.name())).findFirst().orElseThrow();
        assertThat(outcome.buffers()).isEqualTo(cut.buffers());
        assertThat(outcome.bytes()).isEqualTo(cut.buffers() * part.sourceIndices().size() * cut.item());
        assertThat(outcome.checksum()).isEqualTo(HexFormat.of().toHexDigits((int) crc.getValue()));
      }
    }
  }

  @Test
  void rejectsEveryRequestToTheConvOnlyDecodeNodeAndWritesNothing() throws Exception {
    var request = request("req-conv-only", "decode-conv-only", HYBRID.stream()
        .filter(c -> !c.name().equals("ssm")).map(c -> new RequestPart(c.name(), List.of(0), List.of(0))).toList());
    fleet.route(request);
    fleet.awaitState("the request ended", Duration.ofSeconds(60), s ->
        s.transfer(request.transferId()).map(t -> t.status().isTerminal()).orElse(false));

    var rejected = (TransferRejected) fleet.events(request.transferId(), e -> e instanceof TransferRejected).getFirst();
    assertThat(rejected.reason()).isEqualTo(ReasonCodes.COMPONENT_ONE_SIDED);
    assertThat(rejected.detail()).isEqualTo("component 'ssm' (STATE, 3 buffers) is in prefill-0's layout but"
        + " decode-conv-only registered no ssm state; decode-conv-only has [kv, conv, aux]");
    for (var buffers : memory.get("decode-conv-only").values()) {
      for (var buffer : buffers) {
        assertThat(buffer.mismatch(arena.allocate(buffer.byteSize()))).isEqualTo(-1L);
      }
    }
  }

  private TransferRequested request(String id, String destination, List<RequestPart> parts) {
    return TransferRequested.ofRequest(id, "room-" + id, "prefill-0", epochs.get("prefill-0"), destination,
        epochs.get(destination), parts, List.of(), System.currentTimeMillis() + 30_000, true);
  }

  private void startNode(String node, byte fill, List<Cut> cuts) throws Exception {
    long epoch = System.currentTimeMillis();
    epochs.put(node, epoch);
    var dataPlane = EngineDataPlane.open(node);
    fleet.startAgent(node, epoch, dataPlane, Duration.ofSeconds(1), -1, List.of(), RegistrationPolicy.CONTINUE_WITHOUT);
    Map<String, List<MemorySegment>> buffers = new HashMap<>();
    List<ServedComponent> components = new ArrayList<>();
    for (Cut c : cuts) {
      List<MemorySegment> segments = new ArrayList<>();
      for (int b = 0; b < c.buffers(); b++) {
        var segment = dataPlane.allocate(c.name() + "-" + b, c.item() * c.slots());
        for (long i = 0; fill != 0 && i < segment.byteSize(); i++) {
          segment.set(ValueLayout.JAVA_BYTE, i, (byte) (fill + i * 31 + b * 7 + c.name().hashCode()));
        }
        segments.add(segment);
      }
      buffers.put(c.name(), segments);
      var component = new Component(c.name(), c.kind(), MemoryType.DRAM, -1,
          segments.stream().map(MemorySegment::address).toList(), segments.stream().map(MemorySegment::byteSize).toList(),
          segments.stream().map(s -> c.item()).toList());
      components.add(new ServedComponent(component, "bfloat16", c.kind() == RegionKind.KV ? 16 : 1, List.of()));
    }
    memory.put(node, buffers);
    Fleet.await(fleet.agent(node).declare(new ServedModel("hybrid-test", 0, 1, components)));
  }
}
