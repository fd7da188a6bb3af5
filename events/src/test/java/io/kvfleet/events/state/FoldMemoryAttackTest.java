package io.kvfleet.events.state;

import static org.assertj.core.api.Assertions.assertThat;

import io.kvfleet.events.codec.Decoded;
import io.kvfleet.events.codec.EventCodec;
import io.kvfleet.events.trust.FleetKey;
import io.kvfleet.events.trust.KeyBinding;
import io.kvfleet.events.trust.Role;
import io.kvfleet.events.trust.SignedDocument;
import io.kvfleet.events.trust.TrustFile;
import io.kvfleet.events.trust.Verdict;
import io.kvfleet.events.trust.Verifier;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Red team (att2). FleetState's Javadoc: a long-running fold (the coordinator's, {@code keepingEnded}) "forgets"
 * ended transfers, "so its memory is bounded by the transfers of that window", and keeps only the newest
 * {@link FleetState#KEPT_HISTORY} of every other history. Two parts of the fold grow with every record a signed
 * writer chooses to write, forever, whatever the window:
 * <ol>
 *   <li>{@code opaqueByType}: one entry per distinct {@code type} a record names. A type this build does not know
 *       needs only a good signature (Rights.mayWrite answers true for any role, speaksForItsNode false with no
 *       node id), so the least-privileged key, a router's, writes records of a fresh type each, each type as long
 *       as a Kafka record allows (about 1 MB): every one is kept by the coordinator's heap and every snapshot;</li>
 *   <li>{@code Sequences}: one entry per producer <i>incarnation</i>. The signature binds a key to producer names,
 *       not epochs, so the same router key writes each record under a new epoch, and every one is kept.</li>
 * </ol>
 * A router key (or, unsigned, anyone who can write to Kafka) so runs a coordinator out of memory with a few
 * thousand records, none of which the fold ever forgets.
 */
class FoldMemoryAttackTest {
  private static final EventCodec CODEC = new EventCodec();
  private static final int RECORDS = FleetState.KEPT_HISTORY + 500;
  private final FleetKey router = FleetKey.generate("router-0");
  private final Verifier verifier = Verifier.against(TrustFile.of(
      new KeyBinding("router-0", router.publicKey(), Role.ROUTER, Set.of("router-0"), Set.of())));
  private final FleetState state = FleetState.keepingEnded(Duration.ofMinutes(10));

  @Test
  void aRouterKeysRecordsOfEverNewTypesDoNotGrowTheCoordinatorsFoldWithoutBound() {
    for (int i = 0; i < RECORDS; i++) {
      fold(document("io.example.noise-" + i + "-" + "x".repeat(200), 1, i + 1));
    }

    assertThat(state.opaqueByType().size()).as("distinct opaque types a forgetting fold holds")
        .isLessThanOrEqualTo(FleetState.KEPT_HISTORY);
  }

  @Test
  void aRouterKeysRecordsUnderEverNewEpochsDoNotGrowTheCoordinatorsFoldWithoutBound() {
    for (int i = 0; i < RECORDS; i++) {
      fold(document("io.example.noise", i + 1, 1));
    }

    assertThat(state.sequences().size()).as("producer incarnations a forgetting fold holds")
        .isLessThanOrEqualTo(FleetState.KEPT_HISTORY);
  }

  /** Folds {@code raw} as the coordinator does in a signed fleet: only when the Verifier trusts it. */
  private void fold(byte[] raw) {
    var decoded = (Decoded.Event) CODEC.decode(raw);
    var verdict = verifier.check(raw, decoded.envelope(), id -> Optional.empty());
    assertThat(verdict).as("the router's signed record").isInstanceOf(Verdict.Trusted.class);
    state.apply(decoded.envelope());
  }

  private byte[] document(String type, long epoch, long sequence) {
    String json = "{\"specversion\":\"1.0\",\"id\":\"n-" + epoch + "-" + sequence + "\",\"source\":\"/kvfleet/router-0\""
        + ",\"type\":\"" + type + "\",\"subject\":\"\",\"time\":\"2026-11-30T12:00:00Z\""
        + ",\"datacontenttype\":\"application/json\",\"producer\":\"router-0\",\"epoch\":\"" + epoch
        + "\",\"sequence\":\"" + sequence + "\",\"schemaversion\":1,\"data\":{}}";
    return SignedDocument.sign(json.getBytes(StandardCharsets.UTF_8), router);
  }
}
