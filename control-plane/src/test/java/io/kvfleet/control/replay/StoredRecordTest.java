package io.kvfleet.control.replay;

import static org.assertj.core.api.Assertions.assertThat;

import io.kvfleet.events.Envelope;
import io.kvfleet.events.PeerHeartbeat;
import io.kvfleet.events.codec.Decoded;
import io.kvfleet.events.codec.EventCodec;
import io.kvfleet.events.codec.TypeHeader;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A replay refuses what the coordinator's reader refuses: a record whose type header and document disagree. */
class StoredRecordTest {
  private static final EventCodec CODEC = new EventCodec();
  private static final byte[] HEARTBEAT = CODEC.encode(
      Envelope.of("n1", 1, 1, Instant.parse("2026-12-01T00:00:00Z"), "", new PeerHeartbeat("n1", 1, 3_000)));

  private static StoredRecord withHeaders(List<StoredRecord.Header> headers) {
    return new StoredRecord("kvfleet.nodes", 0, 7, 0, "n1".getBytes(StandardCharsets.UTF_8), headers, HEARTBEAT);
  }

  private static StoredRecord.Header type(String wireType) {
    return new StoredRecord.Header(TypeHeader.NAME, wireType.getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void refusesARecordWhoseTypeHeaderNamesAnotherType() {
    Decoded value = withHeaders(List.of(type("io.kvfleet.transfer.completed"))).decode(CODEC).value();

    assertThat(value).isInstanceOfSatisfying(Decoded.Malformed.class,
        m -> assertThat(m.reason()).startsWith(TypeHeader.MISMATCH));
  }

  @Test
  void readsARecordWhoseHeaderAgreesOrThatHasNone() {
    assertThat(withHeaders(List.of(type("io.kvfleet.peer.heartbeat"))).decode(CODEC).value())
        .isInstanceOf(Decoded.Event.class);
    assertThat(withHeaders(List.of()).decode(CODEC).value()).isInstanceOf(Decoded.Event.class);
  }

  /** A key no fleet writer writes is not copied whole: the record is malformed, its key cut. */
  @Test
  void aKeyLongerThanAnyFleetKeyMakesTheRecordMalformed() {
    var record = new StoredRecord("kvfleet.nodes", 0, 7, 0, "k".repeat(100_000).getBytes(), List.of(), "{}".getBytes());

    var read = record.decode(new EventCodec());

    assertThat(read.key()).hasSize(StoredRecord.LONGEST_KEY);
    assertThat(read.value()).isInstanceOfSatisfying(Decoded.Malformed.class, m -> assertThat(m.reason())
        .isEqualTo("a key of 100000 bytes: no fleet writer keys a record with more than 65536"));
  }
}
