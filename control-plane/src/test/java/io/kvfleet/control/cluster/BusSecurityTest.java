package io.kvfleet.control.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kvfleet.control.KvfleetException;
import io.vertx.core.eventbus.EventBusOptions;
import io.vertx.core.http.ClientAuth;
import io.vertx.core.net.PfxOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BusSecurityTest {
  @TempDir Path dir;

  @Test
  void mutualTlsAsksEveryPeerForACertificateAndKeepsItsStoresThroughTheBussJsonCopy() {
    var tls = new BusSecurity.MutualTls(dir.resolve("m.p12"), dir.resolve("t.p12"), "pw");

    var options = new EventBusOptions(tls.apply(new EventBusOptions()).toJson());

    assertThat(options.isSsl()).isTrue();
    assertThat(options.getClientAuth()).isEqualTo(ClientAuth.REQUIRED);
    assertThat(options.getKeyCertOptions()).isInstanceOfSatisfying(PfxOptions.class,
        k -> assertThat(k.getPath()).isEqualTo(dir.resolve("m.p12").toString()));
    assertThat(options.getTrustOptions()).isInstanceOfSatisfying(PfxOptions.class,
        t -> assertThat(t.getPath()).isEqualTo(dir.resolve("t.p12").toString()));
    assertThat(tls.toString()).doesNotContain("pw");
  }

  @Test
  void plaintextLeavesTheOptionsAlone() {
    assertThat(BusSecurity.plaintext().apply(new EventBusOptions()).isSsl()).isFalse();
  }

  @Test
  void aDirectoryWithoutTheStoresNamesWhatIsMissing() {
    assertThatThrownBy(() -> BusSecurity.fromDirectory(dir)).isInstanceOf(KvfleetException.class)
        .hasMessageContaining("has no readable " + BusSecurity.MEMBER_FILE);
  }

  @Test
  void aStoreThatDoesNotOpenWithThePasswordIsRefusedBeforeAnyJoin() throws Exception {
    writeEmptyStore(dir.resolve(BusSecurity.MEMBER_FILE), "right");
    writeEmptyStore(dir.resolve(BusSecurity.TRUST_FILE), "right");
    Files.writeString(dir.resolve(BusSecurity.PASSWORD_FILE), "wrong\n");

    assertThatThrownBy(() -> BusSecurity.fromDirectory(dir)).isInstanceOf(KvfleetException.class)
        .hasMessageContaining("cannot open " + dir.resolve(BusSecurity.MEMBER_FILE));
  }

  @Test
  void aMemberStoreWithoutAPrivateKeyIsRefused() throws Exception {
    writeEmptyStore(dir.resolve(BusSecurity.MEMBER_FILE), "pw");
    writeEmptyStore(dir.resolve(BusSecurity.TRUST_FILE), "pw");
    Files.writeString(dir.resolve(BusSecurity.PASSWORD_FILE), "pw\n");

    assertThatThrownBy(() -> BusSecurity.fromDirectory(dir)).isInstanceOf(KvfleetException.class)
        .hasMessageContaining("holds no private key");
  }

  private static void writeEmptyStore(Path file, String password) throws Exception {
    var store = KeyStore.getInstance("PKCS12");
    store.load(null, null);
    try (var out = Files.newOutputStream(file)) {
      store.store(out, password.toCharArray());
    }
  }
}
