package io.kvfleet.control.coordinator;

import static org.assertj.core.api.Assertions.assertThat;

import io.kvfleet.control.protocol.OrderReply;
import io.kvfleet.control.protocol.TransferOrder;
import io.kvfleet.events.ByteRange;
import io.kvfleet.events.MemoryType;
import io.kvfleet.events.RegionKind;
import io.kvfleet.events.RegionSpec;
import io.kvfleet.events.TransferOp;
import io.kvfleet.events.TransferRequested;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;

/** The coordinator reads what each agent answered an order with, by its kind. */
class OrderRepliesTest {
  private static final RegionSpec KV = new RegionSpec("kv_data-0", RegionKind.KV, MemoryType.DRAM, -1, 4096,
      1 << 20, 4096, "kv_data", 0);
  private final OrderReplies replies = new OrderReplies();

  @Test
  void readsEachKindOfAnswerAndCountsThem() {
    var order = order("t-1");

    assertThat(replies.read(order, OrderReply.ran("t-1", "io.kvfleet.transfer.completed")))
        .isEqualTo(OrderReplies.Reading.RAN);
    assertThat(replies.read(order, OrderReply.duplicate("t-1"))).isEqualTo(OrderReplies.Reading.DUPLICATE);
    assertThat(replies.read(order, OrderReply.unpublished("t-1", "Kafka is away")))
        .isEqualTo(OrderReplies.Reading.UNPUBLISHED);
    assertThat(replies.unanswered(order, new TimeoutException("no answer in 31 s")))
        .isEqualTo(OrderReplies.Reading.UNANSWERED);

    assertThat(replies.counts()).containsExactlyInAnyOrderEntriesOf(Map.of(OrderReplies.Reading.RAN, 1L,
        OrderReplies.Reading.DUPLICATE, 1L, OrderReplies.Reading.UNPUBLISHED, 1L, OrderReplies.Reading.UNANSWERED, 1L));
  }

  @Test
  void anAnswerAboutAnotherTransferIsMisroutedWhateverItsKind() {
    assertThat(replies.read(order("t-1"), OrderReply.ran("t-2", "io.kvfleet.transfer.completed")))
        .isEqualTo(OrderReplies.Reading.MISROUTED);
    assertThat(replies.counts()).containsOnlyKeys(OrderReplies.Reading.MISROUTED);
  }

  private static TransferOrder order(String transferId) {
    var request = new TransferRequested(transferId, "prefill-0", 1, "kv_data-0", "decode-0", 2, "kv_data-0",
        TransferOp.WRITE, List.of(new ByteRange(0, 0, 4096)), 1_000, false);
    return new TransferOrder(request, KV, KV, Map.of(), "", "envelope-1");
  }
}
