package io.kvfleet.events.trust;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;
import java.util.Optional;

/**
 * The signed form of a CloudEvents JSON document, reproducible in any language without a JSON canonicaliser.
 * To sign a document {@code D} (a JSON object whose last byte is its closing brace), replace that brace with
 * {@code ,"keyid":"ID"}}: those exact bytes are the signed bytes {@code S}; then replace the closing brace of
 * {@code S} with {@code ,"signature":"SIG"}}, where SIG is the base64url (no padding) Ed25519 signature of
 * {@code S}. To verify, take off the last member (it must be {@code signature}) and put the brace back.
 */
public final class SignedDocument {
  private static final byte[] SIGNATURE = ",\"signature\":\"".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] KEYID = ",\"keyid\":\"".getBytes(StandardCharsets.US_ASCII);
  /** An Ed25519 signature is 64 bytes: 86 base64url characters without padding. */
  private static final int SIGNATURE_CHARS = 86;
  private static final int TAIL = SIGNATURE.length + SIGNATURE_CHARS + 2; // the member, its quote, the brace

  private SignedDocument() {}

  /** How many bytes signing with {@code key} adds to a document: its two members, whatever the document. */
  public static int added(FleetKey key) {
    return KEYID.length + key.keyId().getBytes(StandardCharsets.US_ASCII).length + TAIL;
  }

  /** What a signed document holds: the key id, the signed bytes and the signature. */
  public record Parts(String keyId, byte[] signedBytes, byte[] signature) {}

  /** {@code document} signed by {@code key}: the two members {@code keyid} and {@code signature} added last. */
  public static byte[] sign(byte[] document, FleetKey key) {
    int brace = document.length - 1;
    if (brace < 1 || document[brace] != '}') {
      throw new IllegalArgumentException("a document to sign must end with its closing brace");
    }
    byte[] id = key.keyId().getBytes(StandardCharsets.US_ASCII);
    byte[] signed = new byte[brace + KEYID.length + id.length + 2];
    System.arraycopy(document, 0, signed, 0, brace);
    System.arraycopy(KEYID, 0, signed, brace, KEYID.length);
    System.arraycopy(id, 0, signed, brace + KEYID.length, id.length);
    signed[signed.length - 2] = '"';
    signed[signed.length - 1] = '}';
    byte[] signature = Base64.getUrlEncoder().withoutPadding().encode(key.sign(signed));
    byte[] out = Arrays.copyOf(signed, signed.length - 1 + TAIL);
    int at = signed.length - 1;
    System.arraycopy(SIGNATURE, 0, out, at, SIGNATURE.length);
    System.arraycopy(signature, 0, out, at + SIGNATURE.length, signature.length);
    out[out.length - 2] = '"';
    out[out.length - 1] = '}';
    return out;
  }

  /** The parts of a signed document, or empty when its last members are not {@code keyid} and {@code signature}. */
  public static Optional<Parts> split(byte[] document) {
    int n = document.length;
    int at = n - TAIL;
    if (at < 1 || document[n - 1] != '}' || document[n - 2] != '"' || !startsWith(document, at, SIGNATURE)) {
      return Optional.empty();
    }
    byte[] signature;
    try {
      signature = Base64.getUrlDecoder().decode(Arrays.copyOfRange(document, at + SIGNATURE.length, n - 2));
    } catch (IllegalArgumentException notBase64url) {
      return Optional.empty();
    }
    byte[] signed = Arrays.copyOf(document, at + 1);
    signed[at] = '}';
    return keyId(signed).map(id -> new Parts(id, signed, signature));
  }

  /** The id in the {@code ,"keyid":"ID"}} the signed bytes end with; ids are [A-Za-z0-9._-]. */
  private static Optional<String> keyId(byte[] signed) {
    int close = signed.length - 2; // the quote before the brace
    if (close < 1 || signed[close] != '"') {
      return Optional.empty();
    }
    int start = close;
    while (start > 0 && isIdChar(signed[start - 1])) {
      start--;
    }
    if (start == close || start < KEYID.length || !startsWith(signed, start - KEYID.length, KEYID)) {
      return Optional.empty();
    }
    return Optional.of(new String(signed, start, close - start, StandardCharsets.US_ASCII));
  }

  private static boolean isIdChar(byte b) {
    return (b >= 'a' && b <= 'z') || (b >= 'A' && b <= 'Z') || (b >= '0' && b <= '9')
        || b == '.' || b == '_' || b == '-';
  }

  private static boolean startsWith(byte[] bytes, int at, byte[] prefix) {
    return at >= 0 && at + prefix.length <= bytes.length
        && Arrays.equals(bytes, at, at + prefix.length, prefix, 0, prefix.length);
  }
}
