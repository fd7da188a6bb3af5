package io.kvfleet.control.coordinator;

import static org.assertj.core.api.Assertions.assertThat;

import io.kvfleet.events.Topics;
import io.kvfleet.events.codec.Decoded;
import java.util.HashSet;
import org.junit.jupiter.api.Test;

/**
 * Red team (att2). While a coordinator catches up (a restart, a takeover) it decides nothing and copies no poison:
 * Coordinator.fold calls {@code poison.add} for every record it cannot fold and {@code poison.flush} only once
 * caught up, and {@link PoisonRecords} keeps each one's whole value until then, up to 10,000 records. In a signed
 * fleet a writer with <b>no key at all</b> (PLAINTEXT Kafka, or any role's Kafka credential with Write, the
 * router's included) writes a few thousand unsigned records of about 1 MB (Kafka's default record limit): each is
 * refused EVENT_UNSIGNED and kept in memory. A live coordinator copies them at once; the next one to start holds
 * them all while it catches up (10,000 x 1 MB = 10 GB), runs out of heap, restarts, and catches up again: the fleet
 * has no coordinator. Observed through {@link PoisonRecords#pendingBytes}.
 */
class PoisonMemoryAttackTest {
  private static final int MIB = 1 << 20;
  private static final int RECORDS = 200;
  /** Generous for what a coordinator needs to remember per poison record (origin and reason, not its value). */
  private static final long BOUND = 64L * MIB;

  @Test
  void poisonReadWhileCatchingUpDoesNotKeepItsWholeValuesInMemory() throws Exception {
    var poison = new PoisonRecords(null, new HashSet<>());
    byte[] junk = new byte[MIB];
    for (int i = 0; i < RECORDS; i++) {
      // what Coordinator.fold adds for an unsigned record while catching up (no flush before catchUp.isDone())
      poison.add(Topics.NODES, 0, i, "k", new Decoded.Malformed("not JSON", junk), "EVENT_UNSIGNED: no keyid");
    }

    assertThat(poison.pendingBytes()).as("bytes of poison values held while catching up (%d records of 1 MiB)",
        RECORDS).isLessThanOrEqualTo(BOUND);
    assertThat(poison.pending()).as("poison records still waiting for their dead-letter copy").isEqualTo(RECORDS);
    assertThat(poison.dropped()).as("poison records given up").isZero();
  }
}
