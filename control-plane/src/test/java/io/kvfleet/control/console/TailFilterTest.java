package io.kvfleet.control.console;

import static org.assertj.core.api.Assertions.assertThat;

import io.kvfleet.events.ByteRange;
import io.kvfleet.events.Envelope;
import io.kvfleet.events.FleetEvent;
import io.kvfleet.events.PeerJoined;
import io.kvfleet.events.PeerLost;
import io.kvfleet.events.TransferCompleted;
import io.kvfleet.events.TransferDispatched;
import io.kvfleet.events.TransferOp;
import io.kvfleet.events.TransferRequested;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class TailFilterTest {
  private long sequence;

  @Test
  void aNodeShowsItsOwnEventsAndTransfersFromAndToIt() {
    var filter = new TailFilter("decode-0", null, null);

    assertThat(filter.shows(of(new PeerJoined("decode-0", 1, "h", "", List.of())))).isTrue();
    assertThat(filter.shows(of(new PeerLost("decode-0", 1, "LEASE_EXPIRED", 0)))).isTrue();
    assertThat(filter.shows(of(new PeerJoined("decode-1", 1, "h", "", List.of())))).isFalse();
    assertThat(filter.shows(of(request("t-to", "prefill-0", "decode-0")))).isTrue();
    assertThat(filter.shows(of(new TransferDispatched("t-to", "prefill-0", "coordinator-0")))).isTrue();
    assertThat(filter.shows(of(completed("t-to", "prefill-0")))).isTrue();
    assertThat(filter.shows(of(request("t-from", "decode-0", "prefill-0")))).isTrue();
    assertThat(filter.shows(of(request("t-else", "prefill-0", "decode-1")))).isFalse();
    assertThat(filter.shows(of(completed("t-else", "prefill-0")))).isFalse();
  }

  @Test
  void aTransferShowsOnlyItsEventsAndATypeItsPrefixWithOrWithoutTheNamespace() {
    var transfer = new TailFilter(null, "t-1", null);
    assertThat(transfer.shows(of(request("t-1", "prefill-0", "decode-0")))).isTrue();
    assertThat(transfer.shows(of(request("t-2", "prefill-0", "decode-0")))).isFalse();
    assertThat(transfer.shows(of(new PeerJoined("t-1", 1, "h", "", List.of())))).as("a node named like it").isFalse();

    for (String type : List.of("transfer.completed", "io.kvfleet.transfer.completed", "transfer.")) {
      var filter = new TailFilter(null, null, type);
      assertThat(filter.shows(of(completed("t-1", "prefill-0")))).as(type).isTrue();
      assertThat(filter.shows(of(new PeerJoined("prefill-0", 1, "h", "", List.of())))).as(type).isFalse();
    }
  }

  @Test
  void aRequestNotTrustedIsShownButNotRememberedAsOneToTheNode() {
    var filter = new TailFilter("decode-0", null, null);
    assertThat(filter.shows(of(request("t-forged", "prefill-0", "decode-0")), false)).isTrue();
    assertThat(filter.shows(of(completed("t-forged", "prefill-0")))).isFalse();
  }

  @Test
  void everyGivenFilterMustHold() {
    var filter = new TailFilter("decode-0", "t-1", "transfer.completed");
    filter.shows(of(request("t-1", "prefill-0", "decode-0")));
    assertThat(filter.shows(of(completed("t-1", "prefill-0")))).isTrue();
    assertThat(filter.shows(of(new TransferDispatched("t-1", "prefill-0", "coordinator-0")))).isFalse();
    assertThat(filter.shows(of(completed("t-2", "prefill-0")))).isFalse();
  }

  private Envelope of(FleetEvent event) {
    return Envelope.of("w", 1, ++sequence, Instant.EPOCH, "", event);
  }

  private static TransferRequested request(String id, String from, String to) {
    return new TransferRequested(id, from, 1, "kv", to, 1, "kv", TransferOp.WRITE, List.of(new ByteRange(0, 0, 4096)),
        60_000, false);
  }

  private static TransferCompleted completed(String id, String source) {
    return new TransferCompleted(id, source, 4096, 1_000, "ucx/posix", "");
  }
}
