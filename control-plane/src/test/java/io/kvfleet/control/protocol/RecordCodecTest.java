package io.kvfleet.control.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kvfleet.control.KvfleetException;
import io.kvfleet.events.ByteRange;
import io.kvfleet.events.MemoryType;
import io.kvfleet.events.RegionKind;
import io.kvfleet.events.RegionSpec;
import io.kvfleet.events.TransferOp;
import io.kvfleet.events.TransferRequested;
import io.vertx.core.buffer.Buffer;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What crosses the EventBus between cluster members comes back as the value that was sent. */
class RecordCodecTest {
  private static final RegionSpec KV = new RegionSpec("kv_data-0", RegionKind.KV, MemoryType.DRAM, -1, 4096,
      1 << 20, 4096, "kv_data", 0);

  @Test
  void anOrderCrossesTheWireWhole() {
    var request = new TransferRequested("t-1", "prefill-0", 1, "kv_data-0", "decode-0", 2, "kv_data-0",
        TransferOp.WRITE, List.of(new ByteRange(0, 4096, 4096)), 1_000, true);
    var order = new TransferOrder(request, KV, KV, Map.of("ucx", "a2V5"), "dHJhbnNwb3J0", "envelope-1");

    assertThat(roundTrip(new RecordCodec<>(TransferOrder.class), order)).isEqualTo(order);
  }

  @Test
  void aReplyAndALandingAnswerCrossTheWireWhole() {
    var refused = new LandingReply(new Landings.Refused("OUT_OF_BOUNDS", 0, "chunk 0+8 exceeds kv"));

    assertThat(roundTrip(new RecordCodec<>(OrderReply.class), OrderReply.duplicate("t-1")))
        .isEqualTo(OrderReply.duplicate("t-1"));
    assertThat(roundTrip(new RecordCodec<>(LandingReply.class), refused).refusal()).isEqualTo(refused.refusal());
    assertThat(roundTrip(new RecordCodec<>(LandingReply.class), LandingReply.landed()).refusal()).isEmpty();
  }

  @Test
  void aValueAfterOthersInTheBufferIsReadFromItsPosition() {
    var codec = new RecordCodec<>(OrderReply.class);
    var buffer = Buffer.buffer().appendString("header");
    codec.encodeToWire(buffer, OrderReply.ran("t-2", "io.kvfleet.transfer.completed"));

    assertThat(codec.decodeFromWire("header".length(), buffer))
        .isEqualTo(OrderReply.ran("t-2", "io.kvfleet.transfer.completed"));
  }

  @Test
  void aBodyThatIsNotTheTypeFailsWithTheReason() {
    var buffer = Buffer.buffer();
    new RecordCodec<>(OrderReply.class).encodeToWire(buffer, OrderReply.ran("t-3", "x"));

    assertThatThrownBy(() -> new RecordCodec<>(StagedChunk.class).decodeFromWire(0, buffer))
        .isInstanceOf(KvfleetException.class).hasMessageContaining("not a valid StagedChunk");
  }

  @Test
  void eachTypeHasACodecNameOfItsOwn() {
    assertThat(new RecordCodec<>(TransferOrder.class).name()).isEqualTo("kvfleet.TransferOrder");
    assertThat(new RecordCodec<>(OrderReply.class).name()).isNotEqualTo(new RecordCodec<>(StagedChunk.class).name());
  }

  private static <T extends Record> T roundTrip(RecordCodec<T> codec, T value) {
    var buffer = Buffer.buffer();
    codec.encodeToWire(buffer, value);
    return codec.decodeFromWire(0, buffer);
  }
}
