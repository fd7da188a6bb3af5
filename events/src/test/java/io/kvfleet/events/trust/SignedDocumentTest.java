package io.kvfleet.events.trust;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class SignedDocumentTest {
  private final FleetKey key = FleetKey.generate("decode-0");
  private final byte[] document = "{\"a\":1,\"data\":{\"b\":\"}\"}}".getBytes(StandardCharsets.UTF_8);

  @Test
  void theSignedBytesAreTheDocumentWithTheKeyIdAsItsLastMember() {
    var parts = SignedDocument.split(SignedDocument.sign(document, key)).orElseThrow();

    assertThat(new String(parts.signedBytes(), StandardCharsets.UTF_8))
        .isEqualTo("{\"a\":1,\"data\":{\"b\":\"}\"},\"keyid\":\"decode-0\"}");
    assertThat(parts.keyId()).isEqualTo("decode-0");
    assertThat(parts.signature()).hasSize(64);
  }

  @Test
  void aDocumentWithoutASignatureAsItsLastMemberHasNoParts() {
    assertThat(SignedDocument.split(document)).isEmpty();
    byte[] signed = SignedDocument.sign(document, key);
    String text = new String(signed, StandardCharsets.UTF_8);
    assertThat(SignedDocument.split((text + " ").getBytes(StandardCharsets.UTF_8))).isEmpty();
    assertThat(SignedDocument.split(text.replace("\"keyid\"", "\"keyId\"").getBytes(StandardCharsets.UTF_8)))
        .isEmpty();
    assertThat(SignedDocument.split(new byte[0])).isEmpty();
  }

  @Test
  void aChangedByteChangesTheSignedBytesSoTheOldSignatureNoLongerChecks() {
    byte[] signed = SignedDocument.sign(document, key);
    signed[5] = '2'; // {"a":2,...
    var parts = SignedDocument.split(signed).orElseThrow();
    var trust = TrustFile.of(new KeyBinding("decode-0", key.publicKey(), Role.NODE, java.util.Set.of(),
        java.util.Set.of()));

    assertThat(trust.check(parts.keyId(), parts.signedBytes(), parts.signature()))
        .isInstanceOf(KeyCheck.BadSignature.class);
  }
}
