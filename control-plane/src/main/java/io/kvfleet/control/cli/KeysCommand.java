package io.kvfleet.control.cli;

import io.kvfleet.control.KvfleetException;
import io.kvfleet.events.trust.FleetKey;
import io.kvfleet.events.trust.KeyBinding;
import io.kvfleet.events.trust.Role;
import io.kvfleet.events.trust.TrustException;
import io.kvfleet.events.trust.TrustFile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code kvfleet keys}: the fleet's signing keys and its trust file. */
@Command(name = "keys", mixinStandardHelpOptions = true,
    description = "Make the Ed25519 keys producers sign events with, and the trust file that says what each may say.",
    subcommands = {KeysCommand.New.class})
final class KeysCommand implements Runnable {
  @picocli.CommandLine.Spec picocli.CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(System.out);
  }

  /** {@code kvfleet keys new}: a key pair, its private half in DIR/ID.key and its binding in DIR/trust.json. */
  @Command(name = "new", mixinStandardHelpOptions = true,
      description = {"Make a new Ed25519 key: DIR/ID.key (PKCS#8 PEM, mode 0600) for the producer's --key, and an"
          + " entry in DIR/trust.json (added, or replacing one with the same id) for every reader's --trust.",
          "E.g.: kvfleet keys new --id coordinator-0 --role coordinator --producer coordinator-0 --dir keys"})
  static final class New implements Callable<Integer> {
    @Option(names = "--id", required = true, description = "The key id (also the file name), e.g. prefill-0")
    String id;

    @Option(names = "--role", required = true, description = "node, coordinator or router")
    String role;

    @Option(names = "--producer", split = ",", description = "Producer names (CloudEvents source) it may write as"
        + " (default: the id)")
    List<String> producers = new ArrayList<>();

    @Option(names = "--node", split = ",", description = "Node ids it may speak for (a node key: default the id)")
    List<String> nodes = new ArrayList<>();

    @Option(names = "--dir", required = true, description = "Where the key and trust.json go (created if absent)")
    Path dir;

    @Override
    public Integer call() {
      Role parsed = Role.fromWire(role).orElseThrow(() ->
          KvfleetException.badInput("--role '" + role + "' is not one of node, coordinator, router"));
      if (!id.matches("[A-Za-z0-9._-]+")) {
        throw KvfleetException.badInput("--id '" + id + "' may hold only letters, digits, '.', '_' and '-'");
      }
      List<String> asProducers = producers.isEmpty() ? List.of(id) : producers;
      List<String> forNodes = nodes.isEmpty() && parsed == Role.NODE ? List.of(id) : nodes;
      try {
        Files.createDirectories(dir);
        Path trustPath = dir.resolve("trust.json");
        TrustFile trust = Files.exists(trustPath) ? TrustFile.load(trustPath) : TrustFile.empty();
        FleetKey key = FleetKey.generate(id);
        Path keyPath = dir.resolve(id + ".key");
        key.save(keyPath);
        trust.with(new KeyBinding(id, key.publicKey(), parsed, new java.util.LinkedHashSet<>(asProducers),
            new java.util.LinkedHashSet<>(forNodes))).save(trustPath);
        System.out.println("kvfleet keys: wrote " + keyPath + " (" + parsed.wireName() + ", producers "
            + asProducers + ", nodes " + forNodes + ") and its entry in " + trustPath);
        return 0;
      } catch (IOException e) {
        throw KvfleetException.badInput("cannot write to " + dir + ": " + e.getMessage());
      } catch (TrustException e) {
        throw KvfleetException.badInput(e.getMessage());
      }
    }
  }
}
