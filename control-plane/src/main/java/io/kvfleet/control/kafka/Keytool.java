package io.kvfleet.control.kafka;

import io.kvfleet.control.KvfleetException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs the JDK's {@code keytool} (of the running JDK) to make a broker's key, certificate and truststore. */
final class Keytool {
  private Keytool() {}

  /**
   * Writes a new PKCS12 keystore with an EC key and a self-signed certificate for {@code names}
   * ({@code ip:...} or {@code dns:...}, its subject alternative names), and a truststore holding
   * only that certificate.
   */
  static void selfSigned(Path keystore, String storePassword, Path truststore, String trustPassword,
      List<String> names) {
    Path certificate = keystore.resolveSibling("broker.crt");
    run("-genkeypair", "-alias", "broker", "-keyalg", "EC", "-groupname", "secp256r1", "-validity", "825",
        "-dname", "CN=kvfleet-broker", "-ext", "SAN=" + String.join(",", names),
        "-keystore", keystore.toString(), "-storetype", "PKCS12", "-storepass", storePassword);
    run("-exportcert", "-rfc", "-alias", "broker", "-keystore", keystore.toString(), "-storepass", storePassword,
        "-file", certificate.toString());
    run("-importcert", "-noprompt", "-alias", "kvfleet-broker", "-file", certificate.toString(),
        "-keystore", truststore.toString(), "-storetype", "PKCS12", "-storepass", trustPassword);
  }

  private static void run(String... args) {
    var command = new ArrayList<String>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
    command.addAll(List.of(args));
    try {
      var process = new ProcessBuilder(command).redirectErrorStream(true).start();
      String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
        throw KvfleetException.badInput("keytool " + args[0] + " failed: " + output.strip());
      }
    } catch (IOException e) {
      throw KvfleetException.badInput("cannot run keytool from " + command.getFirst() + ": " + e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw KvfleetException.badInput("interrupted while keytool " + args[0] + " ran");
    }
  }
}
