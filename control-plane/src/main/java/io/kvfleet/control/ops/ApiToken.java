package io.kvfleet.control.ops;

import io.kvfleet.control.KvfleetException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.Map;

/**
 * The bearer token the ops API and dashboard ask for: read from a file, from
 * {@value #ENV}, or made up at start (printed with the dashboard's URL).
 *
 * @param value the token
 * @param generated whether it was made up here (so it must be printed for anyone to use it)
 */
public record ApiToken(String value, boolean generated) {
  /** The environment variable a token may come from. */
  public static final String ENV = "KVFLEET_API_TOKEN";

  public ApiToken {
    if (value == null || value.isBlank()) {
      throw KvfleetException.badInput("the API token must not be empty");
    }
  }

  /** The token in {@code file} when given, else in {@link #ENV}, else a new random one. */
  public static ApiToken resolve(Path file, Map<String, String> env) {
    if (file != null) {
      try {
        return new ApiToken(Files.readString(file, StandardCharsets.UTF_8).strip(), false);
      } catch (IOException e) {
        throw KvfleetException.badInput("cannot read the API token file " + file + ": " + e.getMessage());
      } catch (KvfleetException e) {
        throw KvfleetException.badInput("the API token file " + file + " is empty");
      }
    }
    String fromEnv = env.get(ENV);
    if (fromEnv != null && !fromEnv.isBlank()) {
      return new ApiToken(fromEnv.strip(), false);
    }
    byte[] random = new byte[24];
    new SecureRandom().nextBytes(random);
    return new ApiToken(HexFormat.of().formatHex(random), true);
  }

  /** Whether {@code offered} is this token (compared in constant time). */
  public boolean matches(String offered) {
    return offered != null && MessageDigest.isEqual(
        value.getBytes(StandardCharsets.UTF_8), offered.getBytes(StandardCharsets.UTF_8));
  }

  @Override
  public String toString() {
    return "ApiToken[" + (generated ? "generated" : "configured") + "]";
  }
}
