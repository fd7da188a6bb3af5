package io.kvfleet.control.cli;

import io.kvfleet.control.KvfleetException;
import io.kvfleet.events.trust.FleetKey;
import io.kvfleet.events.trust.Role;
import io.kvfleet.events.trust.Signing;
import io.kvfleet.events.trust.TrustException;
import io.kvfleet.events.trust.TrustFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Option;

/** {@code --key} and {@code --trust}: what a producer signs with and what a reader verifies against. */
final class TrustOptions {
  private static final Logger LOG = LoggerFactory.getLogger(TrustOptions.class);

  @Option(names = "--key", paramLabel = "FILE", description = "Sign every event with this Ed25519 key"
      + " (PKCS#8 PEM, mode 0600; made by 'kvfleet keys new'); its id is the file name less .key")
  Path key;

  @Option(names = "--trust", paramLabel = "FILE", description = "Verify events against this trust file"
      + " (made by 'kvfleet keys new'); events that do not check are not folded but dead-lettered. Needs --key")
  Path trust;

  /**
   * The signing of {@code producer} in {@code role} (a node's id is its producer name too): as {@link
   * #signing(String)}, and refused when the trust file does not let its key write as that producer in that role, or
   * speak for that node. Every reader that verifies would refuse such a process's every event, and it would run as
   * if it had joined (a node said "joined" while the coordinator dropped each of its records).
   */
  Signing signing(String who, Role role, String producer) {
    var signing = signing(who);
    if (signing.key().isPresent() && signing.trust().isPresent()) {
      requireRights(signing.key().get(), key, signing.trust().get(), trust, who, role, producer);
    }
    return signing;
  }

  /**
   * Refuses {@code key} (from {@code keyFile}, listed in {@code trustFile}) unless its binding lets {@code who} write
   * as {@code producer} in {@code role}, and speak for that node when it is one.
   */
  static void requireRights(FleetKey key, Path keyFile, TrustFile trust, Path trustFile, String who, Role role,
      String producer) {
    var binding = trust.binding(key.keyId());
    String problem = binding.isEmpty() ? "is not in the trust file"
        : binding.get().role() != role ? "is a " + binding.get().role().wireName() + " key, and " + who + " needs a "
            + role.wireName() + " key"
        : !binding.get().mayProduceAs(producer) ? "may not write as '" + producer + "' (it writes as "
            + binding.get().producers() + ")"
        : role == Role.NODE && !binding.get().maySpeakFor(producer) ? "may not speak for node '" + producer + "' (it"
            + " speaks for " + binding.get().nodes() + ")"
        : "";
    if (!problem.isEmpty()) {
      throw KvfleetException.badInput("key '" + key.keyId() + "' (" + keyFile + ") " + problem + " in " + trustFile
          + ": every reader that verifies would refuse what " + who + " writes. Make its own key with 'kvfleet"
          + " keys new --id " + producer + " --role " + role.wireName() + " --dir " + dirOf(trustFile) + "' and"
          + " restart the fleet's readers (they read the trust file when they start)");
    }
  }

  private static String dirOf(Path file) {
    return file.toAbsolutePath().getParent() == null ? "." : file.toAbsolutePath().getParent().toString();
  }

  /** The signing this process runs with; says loudly when it is off, refuses --trust without --key. */
  Signing signing(String who) {
    if (trust != null && key == null) {
      throw KvfleetException.badInput("--trust needs --key: a fleet that verifies refuses unsigned events,"
          + " so " + who + " must sign its own (make one with 'kvfleet keys new')");
    }
    try {
      Optional<FleetKey> fleetKey = Optional.ofNullable(key).map(FleetKey::load);
      Optional<TrustFile> trustFile = Optional.ofNullable(trust).map(TrustFile::load);
      if (fleetKey.isPresent() && trustFile.isPresent()) {
        refuseUnlisted(fleetKey.get(), trustFile.get());
      }
      Signing signing = new Signing(fleetKey, trustFile);
      announce(who, signing);
      return signing;
    } catch (TrustException e) {
      throw KvfleetException.badInput(e.getMessage());
    }
  }

  private void refuseUnlisted(FleetKey fleetKey, TrustFile trustFile) {
    refuseUnlisted(fleetKey, key, trustFile, trust);
  }

  /** Refuses {@code fleetKey} unless {@code trustFile} lists it with its own public half. */
  static void refuseUnlisted(FleetKey fleetKey, Path key, TrustFile trustFile, Path trust) {
    byte[] probe = "kvfleet key check".getBytes(StandardCharsets.US_ASCII);
    if (!trustFile.verify(fleetKey.keyId(), probe, fleetKey.sign(probe))) {
      throw KvfleetException.badInput("key '" + fleetKey.keyId() + "' (" + key + ") is not in " + trust
          + " or its public key there is another's. A key made after the fleet's readers started is not known to them"
          + " either: add it with 'kvfleet keys new' and restart them (they read the trust file when they start)");
    }
  }

  private static void announce(String who, Signing signing) {
    if (!signing.signs()) {
      LOG.warn("EVENTS ARE NOT AUTHENTICATED: {} signs nothing and verifies nothing; anyone who can write to"
          + " Kafka can speak for any node. Give --key and --trust (make keys with 'kvfleet keys new')", who);
      System.err.println("kvfleet: WARNING: events are NOT authenticated (" + who + " runs without --key/--trust;"
          + " make keys with 'kvfleet keys new')");
    } else if (!signing.verifies()) {
      LOG.warn("{} signs its events but verifies none it reads: give --trust to refuse forged ones", who);
      System.err.println("kvfleet: WARNING: " + who + " signs but does not verify (no --trust)");
    } else {
      LOG.info("{} signs as key {} and verifies against the trust file", who, signing.key().orElseThrow().keyId());
    }
  }
}
