package io.kvfleet.control.cli;

import io.kvfleet.control.KvfleetException;
import io.kvfleet.control.replay.LogSource;
import io.kvfleet.control.kafka.TransferPlacement;
import io.kvfleet.events.replay.Placement;
import io.kvfleet.events.replay.ReplayOptions;
import io.kvfleet.events.trust.TrustException;
import io.kvfleet.events.trust.TrustFile;
import io.kvfleet.events.trust.Verifier;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/** {@code --trust} on a command that only reads the log: replay and explain verify, and fold only what checks. */
final class ReadTrustOptions {
  @Option(names = "--trust", paramLabel = "FILE", description = "Verify every event against this trust file"
      + " ('kvfleet keys new'): one that does not check is not folded but listed as an UNAUTHENTICATED anomaly")
  Path trust;

  /**
   * {@code options}, verifying as this run was asked to; a verifying replay also refuses a transfer record
   * that is not where its writer put it, as a verifying coordinator does, so it needs {@code source}'s
   * transfers topic.
   */
  ReplayOptions verifying(ReplayOptions options, LogSource source, String command) {
    Verifier verifier = verifier(command);
    return options.verifying(verifier)
        .placement(verifier.isOn() ? TransferPlacement.of(source.transferPartitions()) : Placement.ANYWHERE);
  }

  /** The verifier for this run; says on stderr when signatures are not checked. */
  Verifier verifier(String command) {
    if (trust == null) {
      System.err.println("kvfleet " + command + ": WARNING: signatures are NOT checked (give --trust FILE to fold"
          + " only what its writer had the right to say)");
      return Verifier.off();
    }
    return load(trust);
  }

  /** The verifier of the trust file {@code trust}; a file that does not load is the user's to mend. */
  static Verifier load(Path trust) {
    try {
      return Verifier.against(TrustFile.load(trust));
    } catch (TrustException e) {
      throw KvfleetException.badInput(e.getMessage());
    }
  }
}
