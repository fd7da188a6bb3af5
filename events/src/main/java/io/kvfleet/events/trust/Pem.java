package io.kvfleet.events.trust;

import java.util.Base64;

/** The PEM armour of a DER document ({@code -----BEGIN label-----}, base64 lines, {@code -----END label-----}). */
final class Pem {
  private Pem() {}

  static String encode(String label, byte[] der) {
    String body = Base64.getMimeEncoder(64, "\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII))
        .encodeToString(der);
    return "-----BEGIN " + label + "-----\n" + body + "\n-----END " + label + "-----\n";
  }

  /** The DER inside the first block with this label, or null when there is none or it is not base64. */
  static byte[] decode(String label, String text) {
    String begin = "-----BEGIN " + label + "-----";
    String end = "-----END " + label + "-----";
    int from = text.indexOf(begin);
    int to = text.indexOf(end);
    if (from < 0 || to < from) {
      return null;
    }
    try {
      return Base64.getMimeDecoder().decode(text.substring(from + begin.length(), to).strip());
    } catch (IllegalArgumentException notBase64) {
      return null;
    }
  }
}
