package io.kvfleet.control.kafka;

import io.kvfleet.control.KvfleetException;
import java.io.IOException;
import java.io.Reader;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/**
 * What a secured embedded broker runs with, kept in one folder ({@code kvfleet kafka --secure DIR}):
 * a key and self-signed certificate ({@code broker.p12}, made with the JDK's keytool on first use),
 * the truststore clients check it with ({@code truststore.p12}), a random password per SCRAM user
 * ({@code secrets.properties}) and one client properties file per {@link KafkaRole}
 * ({@code coordinator.properties}, ...), the files a fleet is given as {@code --kafka-config}.
 * Secret files are readable by their owner only.
 *
 * <p>The client listener is SASL_SSL with SCRAM-SHA-512 (inter-broker traffic too, as the user
 * {@code broker}); the controller listener stays on loopback with SASL PLAIN (user {@code broker}),
 * not TLS.
 *
 * @param dir the folder
 * @param secrets the keystore and truststore passwords and every user's password
 */
public record BrokerSecurity(Path dir, Map<String, String> secrets) {
  /** The broker's own SCRAM and controller user: a super user, like the admin. */
  static final String BROKER_USER = "broker";
  static final String MECHANISM = "SCRAM-SHA-512";
  private static final String KEYSTORE = "keystore.password";
  private static final String TRUSTSTORE = "truststore.password";

  public BrokerSecurity {
    secrets = Map.copyOf(secrets);
  }

  /** Reads the folder, or fills a new (or empty) one: key, certificate, passwords, client properties. */
  public static BrokerSecurity prepare(Path dir, String host) {
    try {
      Files.createDirectories(dir);
      Path secretsFile = dir.resolve("secrets.properties");
      var security = Files.exists(secretsFile) ? new BrokerSecurity(dir, read(secretsFile)) : create(dir, host);
      security.writeClientProperties();
      return security;
    } catch (IOException e) {
      throw KvfleetException.badInput("--secure " + dir + ": " + e);
    }
  }

  private static BrokerSecurity create(Path dir, String host) throws IOException {
    var secrets = new LinkedHashMap<String, String>();
    secrets.put(KEYSTORE, password());
    secrets.put(TRUSTSTORE, password());
    secrets.put(BROKER_USER, password());
    for (KafkaRole role : KafkaRole.values()) {
      secrets.put(role.user(), password());
    }
    var names = new ArrayList<>(List.of("ip:127.0.0.1", "dns:localhost"));
    String hostName = (host.matches("[0-9.]+") || host.contains(":") ? "ip:" : "dns:") + host;
    if (!names.contains(hostName)) {
      names.add(hostName);
    }
    Files.deleteIfExists(dir.resolve("broker.p12"));
    Files.deleteIfExists(dir.resolve("truststore.p12"));
    Keytool.selfSigned(dir.resolve("broker.p12"), secrets.get(KEYSTORE), dir.resolve("truststore.p12"),
        secrets.get(TRUSTSTORE), names);
    ownerOnly(dir.resolve("broker.p12"));
    var security = new BrokerSecurity(dir, secrets);
    write(dir.resolve("secrets.properties"), secrets, "kvfleet kafka --secure: passwords of the keystore and users");
    return security;
  }

  /** The password of {@code user}. */
  public String password(String user) {
    return secrets.get(user);
  }

  /** The client properties file of {@code role}. */
  public Path clientProperties(KafkaRole role) {
    return dir.resolve(role.user() + ".properties");
  }

  /** The client properties of {@code user} (SASL_SSL, SCRAM-SHA-512, this folder's truststore). */
  public Map<String, String> clientConfig(String user, String password) {
    var config = new LinkedHashMap<String, String>();
    config.put("security.protocol", "SASL_SSL");
    config.put("sasl.mechanism", MECHANISM);
    config.put("sasl.jaas.config", scramJaas(user, password));
    config.put("ssl.truststore.location", dir.resolve("truststore.p12").toAbsolutePath().toString());
    config.put("ssl.truststore.type", "PKCS12");
    config.put("ssl.truststore.password", secrets.get(TRUSTSTORE));
    return config;
  }

  /** The broker settings for a client listener {@code CLIENT} and a controller listener {@code CONTROLLER}. */
  Map<String, String> brokerConfig() {
    var config = new LinkedHashMap<String, String>();
    String brokerPassword = secrets.get(BROKER_USER);
    config.put("listener.security.protocol.map", "CLIENT:SASL_SSL,CONTROLLER:SASL_PLAINTEXT");
    config.put("inter.broker.listener.name", "CLIENT");
    config.put("listener.name.client.sasl.enabled.mechanisms", MECHANISM);
    config.put("sasl.mechanism.inter.broker.protocol", MECHANISM);
    config.put("listener.name.client.scram-sha-512.sasl.jaas.config", scramJaas(BROKER_USER, brokerPassword));
    config.put("listener.name.controller.sasl.enabled.mechanisms", "PLAIN");
    config.put("sasl.mechanism.controller.protocol", "PLAIN");
    config.put("listener.name.controller.plain.sasl.jaas.config",
        "org.apache.kafka.common.security.plain.PlainLoginModule required username=\"" + BROKER_USER
            + "\" password=\"" + brokerPassword + "\" user_" + BROKER_USER + "=\"" + brokerPassword + "\";");
    config.put("ssl.keystore.location", dir.resolve("broker.p12").toAbsolutePath().toString());
    config.put("ssl.keystore.type", "PKCS12");
    config.put("ssl.keystore.password", secrets.get(KEYSTORE));
    config.put("ssl.key.password", secrets.get(KEYSTORE));
    config.put("ssl.truststore.location", dir.resolve("truststore.p12").toAbsolutePath().toString());
    config.put("ssl.truststore.type", "PKCS12");
    config.put("ssl.truststore.password", secrets.get(TRUSTSTORE));
    config.put("authorizer.class.name", "org.apache.kafka.metadata.authorizer.StandardAuthorizer");
    config.put("super.users", KafkaRole.ADMIN.principal() + ";User:" + BROKER_USER);
    config.put("allow.everyone.if.no.acl.found", "false");
    return config;
  }

  /** The SCRAM credentials to format a new log folder with ({@code kafka-storage format --add-scram}). */
  List<String> scramArguments() {
    var users = new ArrayList<String>();
    users.add(BROKER_USER);
    for (KafkaRole role : KafkaRole.values()) {
      users.add(role.user());
    }
    return users.stream().map(u -> MECHANISM + "=[name=" + u + ",password=" + secrets.get(u) + "]").toList();
  }

  private void writeClientProperties() throws IOException {
    for (KafkaRole role : KafkaRole.values()) {
      write(clientProperties(role), clientConfig(role.user(), secrets.get(role.user())),
          "kvfleet: Kafka client properties of a " + role.user() + " (--kafka-config)");
    }
  }

  private static String scramJaas(String user, String password) {
    return "org.apache.kafka.common.security.scram.ScramLoginModule required username=\"" + user
        + "\" password=\"" + password + "\";";
  }

  private static String password() {
    var bytes = new byte[18];
    new SecureRandom().nextBytes(bytes);
    return HexFormat.of().formatHex(bytes);
  }

  private static Map<String, String> read(Path file) throws IOException {
    var properties = new Properties();
    try (Reader in = Files.newBufferedReader(file)) {
      properties.load(in);
    }
    var map = new LinkedHashMap<String, String>();
    properties.stringPropertyNames().forEach(n -> map.put(n, properties.getProperty(n)));
    if (!map.containsKey(KEYSTORE) || !map.containsKey(BROKER_USER)) {
      throw KvfleetException.badInput(file + " is not a kvfleet kafka --secure secrets file: delete the folder's"
          + " files to make new ones");
    }
    return map;
  }

  private static void write(Path file, Map<String, String> values, String comment) throws IOException {
    Files.deleteIfExists(file);
    Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
    try (Writer out = Files.newBufferedWriter(file)) { // plain key=value lines, as one would write them by hand
      out.write("# " + comment + "\n");
      for (var e : values.entrySet()) {
        out.write(e.getKey() + "=" + e.getValue() + "\n");
      }
    }
  }

  private static void ownerOnly(Path file) throws IOException {
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
  }
}
