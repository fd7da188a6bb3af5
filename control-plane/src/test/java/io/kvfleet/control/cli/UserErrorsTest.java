package io.kvfleet.control.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.kvfleet.control.replay.Cli;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** A mistake the user can act on ends in one line saying what, and exit code 2, never a stack trace. */
class UserErrorsTest {
  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "demo --rate 0 | --rate must be 1 to 1000 requests per second, not 0",
      "demo --rate 5000 | --rate must be 1 to 1000 requests per second, not 5000",
      "demo --crash-node nosuch-0 | --crash-node nosuch-0: the demo's nodes are [prefill-0, decode-0, decode-1]",
      "demo --crash-after 5s | --crash-after needs --crash-node (which node to crash)",
      "demo --replication-factor 3 | --replication-factor is for an external cluster (--bootstrap-servers)",
      "demo --bootstrap-servers 127.0.0.1:1 --data-dir /tmp/x | --data-dir is for the embedded broker",
      "coordinator --bootstrap-servers 127.0.0.1:1 --snapshot-every 5 | --snapshot-every needs --snapshot-dir",
      "replay --file x.jsonl.zst --max-anomalies -1 | --max-anomalies must not be negative: -1",
      "export --bootstrap-servers 127.0.0.1:1 -o /no/such/folder/x.jsonl.zst | cannot write /no/such/folder/x.jsonl.zst:"
          + " its folder does not exist",
      "request --bootstrap-servers 127.0.0.1:1 --from p-0/kv --to d-0/kv --bytes 1 --deadline 2562047788016h"
          + " | --deadline must be more than 0 and at most a day, not PT2562047788016H",
      "request --bootstrap-servers 127.0.0.1:1 --from p-0/kv --to d-0/kv --bytes 1 --id= | --id must be 1 to 256"
          + " characters, not blank",
      "request --bootstrap-servers 127.0.0.1:1 --from p-0 --to d-0/kv --bytes 1 | --from p-0: give NODE/REGION, e.g."
          + " prefill-0/kv_data-0",
      // An earlier incident's export was replaced without a word.
      "export --bootstrap-servers 127.0.0.1:1 -o /etc/passwd | /etc/passwd exists (an earlier export?): nothing was"
          + " written; give another -o, or --force to replace it",
      "coordinator --bootstrap-servers 127.0.0.1:1 --cluster-tls-dir /no/such/tls | --cluster-tls-dir /no/such/tls has no"
          + " readable member.p12",
      "node --id n-0 --bootstrap-servers 127.0.0.1:1 --api-token-file /dev/null | the agent API token file /dev/null is not"
          + " a regular file",
      "tail --bootstrap-servers 127.0.0.1:1 --kafka-config /no/such.properties | --kafka-config /no/such.properties:"
          + " no such file",
      "coordinator --bootstrap-servers 127.0.0.1:1 --kafka-config /no/such.properties | --kafka-config"
          + " /no/such.properties: no such file",
      "replay --bootstrap-servers 127.0.0.1:1 --kafka-config /no/such.properties | --kafka-config /no/such.properties:"
          + " no such file",
      "demo --kafka-config /no/such.properties | --kafka-config is for an external cluster (--bootstrap-servers)",
      "kafka --secure /tmp/x --node-id 1 --controller-quorum 1@127.0.0.1:1 | --secure runs a single broker",
      "keys new --role nod --id x --dir /no/such/keys | kvfleet keys new: --role 'nod' is not one of node, coordinator,"
          + " router",
      // A stack trace of Kafka's admin client, 23 lines, for an address without its port or a host that is no host.
      "tail --bootstrap-servers 127.0.0.1 | kvfleet tail: Kafka's client refused its settings: Invalid url in"
          + " bootstrap.servers: 127.0.0.1 (--bootstrap-servers takes HOST:PORT",
      "tail --bootstrap-servers no-such-host.invalid:9092 | No resolvable bootstrap urls given in bootstrap.servers",
      // Kafka's own tools spell it in the singular: picocli said only that the plural was missing.
      "coordinator --bootstrap-server 127.0.0.1:1 | --bootstrap-server is not an option of kvfleet coordinator: did you"
          + " mean --bootstrap-servers?",
      "kafka --prot 19348 | --prot is not an option of kvfleet kafka: did you mean --port?",
      "request --bootstrap-servers 127.0.0.1:1 --from p-0/kv --to d-0/kv --bytes 32q | '32q' is not a size: write a"
          + " positive number of bytes, optionally with k, m or g",
      "node --id decode-1 --bootstrap-servers 127.0.0.1:1 --key /no/such/decode-1.key | cannot read"
          + " /no/such/decode-1.key: no such file (keys and the trust file are made by 'kvfleet keys new"})
  void refusesOptionsThatCouldOnlyFailLaterBeforeStartingAnything(String command, String message) {
    var run = Cli.run(command.split(" "));

    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err()).contains(message).doesNotContain("\tat ");
    assertThat(run.out()).as("nothing started").doesNotContain("embedded Kafka broker");
  }

  @Test
  void aKafkaThatDoesNotAnswerIsNamedInsteadOfWaitedForSilently() {
    var run = Cli.run("tail", "--bootstrap-servers", "127.0.0.1:1", "--duration", "1s");

    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err()).startsWith("kvfleet tail: Kafka at 127.0.0.1:1 did not answer: ").doesNotContain("\tat ");
  }

  @Test
  void aUserErrorWrappedByAFutureStillEndsInItsMessage() {
    var err = new java.io.StringWriter();
    var commandLine = Kvfleet.commandLine().addSubcommand("wrapped", new Wrapped())
        .setErr(new java.io.PrintWriter(err, true)); // set after adding: it reaches the subcommand too

    int code = commandLine.execute("wrapped");

    assertThat(code).isEqualTo(2);
    assertThat(err.toString()).isEqualTo("kvfleet wrapped: the user can act on this" + System.lineSeparator());
  }

  @picocli.CommandLine.Command(name = "wrapped")
  static final class Wrapped implements java.util.concurrent.Callable<Integer> {
    @Override
    public Integer call() throws Exception {
      throw new java.util.concurrent.ExecutionException(
          io.kvfleet.control.KvfleetException.badInput("the user can act on this"));
    }
  }

  @Test
  void anUnresolvableClusterHostIsNamedBeforeAnythingStarts() {
    var run = Cli.run("node", "--id", "prefill-0", "--bootstrap-servers", "127.0.0.1:1",
        "--cluster-host", "no-such-host.invalid");

    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err()).contains("kvfleet node: cannot resolve cluster host no-such-host.invalid")
        .doesNotContain("\tat ");
  }
}
