package io.kvfleet.control.agent;

import io.kvfleet.control.KvfleetException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.HexFormat;

/**
 * The bearer token a caller of the agent's local API must show ({@code Authorization: Bearer
 * TOKEN}); kept in a file only the agent's user can read ({@link TokenFile}).
 *
 * @param value the token
 */
public record ApiCredential(String value) {
  public ApiCredential {
    if (value == null || value.isBlank() || value.strip().length() != value.length()) {
      throw KvfleetException.badInput("the agent API token must be non-empty and without surrounding blanks");
    }
  }

  /** A new token: 32 random bytes in hex. */
  public static ApiCredential random() {
    byte[] bytes = new byte[32];
    new SecureRandom().nextBytes(bytes);
    return new ApiCredential(HexFormat.of().formatHex(bytes));
  }

  /** Whether {@code offered} is this token (compared in constant time). */
  public boolean matches(String offered) {
    return offered != null && MessageDigest.isEqual(
        value.getBytes(StandardCharsets.UTF_8), offered.getBytes(StandardCharsets.UTF_8));
  }

  @Override
  public String toString() {
    return "ApiCredential[hidden]";
  }
}
