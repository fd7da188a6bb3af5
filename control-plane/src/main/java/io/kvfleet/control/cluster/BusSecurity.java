package io.kvfleet.control.cluster;

import static java.util.Objects.requireNonNull;

import io.kvfleet.control.KvfleetException;
import io.vertx.core.eventbus.EventBusOptions;
import io.vertx.core.http.ClientAuth;
import io.vertx.core.net.PfxOptions;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.jgroups.protocols.TCP;
import org.jgroups.util.TLS;
import org.jgroups.util.TLSClientAuth;

/**
 * How the connections between members are protected, the EventBus's and the membership's (JGroups)
 * alike: in the clear, or mutual TLS with the fleet's certificates, so a process without one can
 * neither join the membership nor send to or receive from the fleet's members ({@code docs/SECURITY.md}).
 */
public sealed interface BusSecurity {
  /** The key store in a TLS directory: this member's private key and certificate chain (PKCS#12). */
  String MEMBER_FILE = "member.p12";
  /** The trust store in a TLS directory: the fleet CA's certificate (PKCS#12). */
  String TRUST_FILE = "trust.p12";
  /** The password of both stores, one line. */
  String PASSWORD_FILE = "password";

  /** Applies this to the EventBus's options. */
  EventBusOptions apply(EventBusOptions options);

  /** Applies this to the membership's transport. */
  TCP secure(TCP transport);

  /** No TLS: anyone who knows the cluster name and reaches a member's port joins, sends and receives. */
  record Plaintext() implements BusSecurity {
    @Override
    public EventBusOptions apply(EventBusOptions options) {
      return options;
    }

    @Override
    public TCP secure(TCP transport) {
      return transport;
    }
  }

  /** Mutual TLS: both ends of every EventBus connection show a certificate the fleet CA signed. */
  record MutualTls(Path memberStore, Path trustStore, String password) implements BusSecurity {
    public MutualTls {
      requireNonNull(memberStore, "memberStore must not be null");
      requireNonNull(trustStore, "trustStore must not be null");
      requireNonNull(password, "password must not be null");
    }

    @Override
    public EventBusOptions apply(EventBusOptions options) {
      options.setSsl(true).setClientAuth(ClientAuth.REQUIRED)
          .setKeyCertOptions(store(memberStore)).setTrustOptions(store(trustStore));
      return options;
    }

    /** TLS on every JGroups connection, both ways, and a peer without a certificate the fleet CA signed is refused. */
    @Override
    public TCP secure(TCP transport) {
      return transport.tls(new TLS().enabled(true).setClientAuth(TLSClientAuth.NEED)
          .setKeystorePath(memberStore.toString()).setKeystoreType("PKCS12").setKeystorePassword(password)
          .setTruststorePath(trustStore.toString()).setTruststoreType("PKCS12").setTruststorePassword(password));
    }

    /** PKCS#12 as {@link PfxOptions}: the clustered EventBus copies its options through JSON, which keeps only the named kinds. */
    private PfxOptions store(Path file) {
      return new PfxOptions().setPath(file.toString()).setPassword(password);
    }

    @Override
    public String toString() {
      return "MutualTls[" + memberStore + ", " + trustStore + "]";
    }
  }

  /** The bus in the clear. */
  static BusSecurity plaintext() {
    return new Plaintext();
  }

  /**
   * Mutual TLS from a directory holding {@value #MEMBER_FILE}, {@value #TRUST_FILE} and
   * {@value #PASSWORD_FILE}; a missing or unreadable one is a bad input that names it.
   */
  static BusSecurity fromDirectory(Path dir) {
    Path member = readable(dir, MEMBER_FILE);
    Path trust = readable(dir, TRUST_FILE);
    Path passwordFile = readable(dir, PASSWORD_FILE);
    String password;
    try {
      password = Files.readString(passwordFile, StandardCharsets.UTF_8).strip();
    } catch (IOException e) {
      throw KvfleetException.badInput("--cluster-tls-dir: cannot read " + passwordFile + ": " + e.getMessage());
    }
    StoreCheck.opens(member, password, true);
    StoreCheck.opens(trust, password, false);
    return new MutualTls(member, trust, password);
  }

  private static Path readable(Path dir, String name) {
    Path file = dir.resolve(name);
    if (!Files.isReadable(file)) {
      throw KvfleetException.badInput("--cluster-tls-dir " + dir + " has no readable " + name
          + " (it needs " + MEMBER_FILE + ", " + TRUST_FILE + " and " + PASSWORD_FILE + "; see docs/SECURITY.md)");
    }
    return file;
  }
}
