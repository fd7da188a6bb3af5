package io.kvfleet.control.cluster;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A fleet CA and member certificates made at test time with the JDK's {@code keytool}, the same
 * commands {@code docs/SECURITY.md} gives users: no private key is committed anywhere.
 */
final class FleetCertificates {
  private final Path dir;
  private final String password;

  private FleetCertificates(Path dir, String password) {
    this.dir = dir;
    this.password = password;
  }

  /** A new fleet CA (an EC key) in a directory of its own under {@code parent}. */
  static FleetCertificates newFleet(Path parent, String name) throws Exception {
    Path dir = Files.createDirectories(parent.resolve(name));
    var certificates = new FleetCertificates(dir, "pw-" + Long.toHexString(System.nanoTime()));
    certificates.keytool("-genkeypair", "-alias", "ca", "-keyalg", "EC", "-groupname", "secp256r1",
        "-dname", "CN=" + name + " fleet CA", "-ext", "bc:c", "-validity", "2", "-keystore", "ca.p12");
    certificates.keytool("-exportcert", "-rfc", "-alias", "ca", "-keystore", "ca.p12", "-file", "ca.pem");
    return certificates;
  }

  /** A member's TLS directory ({@link BusSecurity#fromDirectory}): its own key, signed by this CA, and the CA to trust. */
  Path member(String memberName) throws Exception {
    Path out = Files.createDirectories(dir.resolve(memberName));
    String store = out.resolve(BusSecurity.MEMBER_FILE).toString();
    keytool("-genkeypair", "-alias", "member", "-keyalg", "EC", "-groupname", "secp256r1",
        "-dname", "CN=" + memberName, "-validity", "2", "-keystore", store);
    keytool("-certreq", "-alias", "member", "-keystore", store, "-file", memberName + ".csr");
    keytool("-gencert", "-alias", "ca", "-keystore", "ca.p12", "-infile", memberName + ".csr",
        "-outfile", memberName + ".pem", "-rfc", "-validity", "2", "-ext", "san=ip:127.0.0.1,dns:localhost");
    keytool("-importcert", "-noprompt", "-alias", "fleet-ca", "-file", "ca.pem", "-keystore", store);
    keytool("-importcert", "-alias", "member", "-file", memberName + ".pem", "-keystore", store);
    keytool("-importcert", "-noprompt", "-alias", "fleet-ca", "-file", "ca.pem",
        "-keystore", out.resolve(BusSecurity.TRUST_FILE).toString());
    Files.writeString(out.resolve(BusSecurity.PASSWORD_FILE), password + "\n");
    return out;
  }

  private void keytool(String... args) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
    command.addAll(List.of(args));
    command.addAll(List.of("-storetype", "PKCS12", "-storepass", password));
    var process = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
    String output = new String(process.getInputStream().readAllBytes());
    if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
      throw new IOException("keytool " + String.join(" ", args) + " failed: " + output);
    }
  }
}
