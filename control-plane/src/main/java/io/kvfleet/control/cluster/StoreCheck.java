package io.kvfleet.control.cluster;

import io.kvfleet.control.KvfleetException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.util.Collections;

/** Opens a PKCS#12 store at start, so a wrong password or an empty store is said before any join. */
final class StoreCheck {
  private StoreCheck() {}

  /** Checks {@code file} opens with {@code password} and holds a private key ({@code needsKey}) or a trusted certificate. */
  static void opens(Path file, String password, boolean needsKey) {
    KeyStore store;
    try (InputStream in = Files.newInputStream(file)) {
      store = KeyStore.getInstance("PKCS12");
      store.load(in, password.toCharArray());
    } catch (IOException | GeneralSecurityException e) {
      throw KvfleetException.badInput("--cluster-tls-dir: cannot open " + file + " as PKCS#12 with the password given: "
          + e.getMessage());
    }
    try {
      for (String alias : Collections.list(store.aliases())) {
        if (needsKey ? store.isKeyEntry(alias) : store.isCertificateEntry(alias)) {
          return;
        }
      }
    } catch (GeneralSecurityException e) {
      throw KvfleetException.badInput("--cluster-tls-dir: cannot read " + file + ": " + e.getMessage());
    }
    throw KvfleetException.badInput("--cluster-tls-dir: " + file + " holds no "
        + (needsKey ? "private key" : "trusted certificate"));
  }
}
