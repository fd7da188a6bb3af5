package io.kvfleet.control.cli;

import io.kvfleet.control.KvfleetException;
import io.kvfleet.control.ReplayJson;
import io.kvfleet.control.replay.ExportSnapshots;
import io.kvfleet.control.replay.ReplayRunner;
import io.kvfleet.control.replay.ReplayText;
import io.kvfleet.control.replay.TimeTravel;
import io.kvfleet.events.replay.ExplainTarget;
import io.kvfleet.events.replay.Replay;
import io.kvfleet.events.replay.ReplayOptions;
import io.kvfleet.events.replay.Until;
import io.kvfleet.events.state.FleetState;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code kvfleet explain}: the causal chain behind one transfer, region or node. */
@Command(name = "explain", mixinStandardHelpOptions = true,
    description = "Replay the log (from Kafka or an export) and explain one entity: why a transfer ended as it did, "
        + "what happened to a region over its node's incarnations, or a node's life from join to end.")
final class ExplainCommand implements Callable<Integer> {
  @Parameters(index = "0", paramLabel = "KIND", description = "transfer, region or node")
  String kind;

  @Parameters(index = "1", paramLabel = "ID", description = "a transfer id, a region as NODE/REGION (or REGION "
      + "when only one node has it), or a node id")
  String id;

  @ArgGroup(exclusive = true, multiplicity = "1")
  SourceOptions from;

  @picocli.CommandLine.Mixin ReadTrustOptions trust;
  @picocli.CommandLine.Mixin KafkaConfigOption kafkaConfig;

  @Option(names = "--until", description = "Explain as of a time, a record (kvfleet.nodes-1@42) or a record count")
  String until;

  @Option(names = "--json", description = "Print JSON for tools")
  boolean json;

  @Option(names = "--keep-ended", description = "Forget a transfer this long (in log time) after it ended, as a "
      + "coordinator with the same --keep-ended does; snapshots beside an export are used only with their window "
      + "(default: keep every transfer)")
  java.time.Duration keepEnded;

  @Option(names = "--from-snapshots", description = "With --until on an export: start from the newest snapshot beside "
      + "it (export --snapshots-every) instead of its start; faster, but the steps hold only events after the snapshot, "
      + "so a subject whose history began before it is not explained whole")
  boolean fromSnapshots;

  /**
   * The replay behind the explanation: from the start, or, asked to ({@code --from-snapshots}), from
   * the newest usable snapshot beside an export (the rule {@code replay --until} follows,
   * {@link TimeTravel}). Not by default: from a snapshot the history holds only the records after
   * it, so a transfer requested before it would read as never requested; the text says so.
   */
  private io.kvfleet.events.replay.ReplayResult replay(ReplayOptions options) {
    if (from.file != null && until != null && fromSnapshots
        && java.nio.file.Files.isDirectory(ExportSnapshots.dirOf(from.file))) {
      var travel = TimeTravel.replay(from.file, options, java.util.Optional.ofNullable(keepEnded), !json);
      if (!json) {
        travel.start().skipped().forEach(s -> System.out.println("snapshot skipped: " + s));
        travel.start().snapshot().ifPresent(s -> System.out.printf("Started from snapshot %s (the state after the "
            + "export's first %,d records): events before it are not among the steps; without --from-snapshots they are%n",
            s.file(), s.header().records()));
      }
      return travel.replay();
    }
    var replay = new Replay(keepEnded == null ? new FleetState() : FleetState.keepingEnded(keepEnded), options);
    ReplayRunner.run(from.source(), replay, !json);
    return replay.finish();
  }

  @Override
  public Integer call() {
    if (from.bootstrapServers != null) {
      kafkaConfig.apply(from.bootstrapServers);
    }
    try {
      var target = ExplainTarget.of(kind, id);
      var options = trust.verifying(ReplayOptions.defaults().until(until == null ? new Until.End() : Until.parse(until))
          .explaining(target), from.source(), "explain");
      var result = replay(options);
      var explanation = result.explain(target);
      if (json) {
        System.out.println(ReplayJson.pretty(explanation));
      } else {
        ReplayText.explanation(explanation, System.out);
        if (!explanation.found() && result.stoppedEarly()) {
          System.out.println("(the replay stopped at --until " + until + "; it may come later in the log)");
        }
      }
      return explanation.found() ? 0 : 1;
    } catch (KvfleetException | IllegalArgumentException e) {
      System.err.println("kvfleet explain: " + e.getMessage());
      return 2;
    }
  }
}
