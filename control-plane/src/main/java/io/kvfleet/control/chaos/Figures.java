package io.kvfleet.control.chaos;

import java.time.Duration;
import java.util.List;

/**
 * What one fault run found, read back from the log after it drained.
 *
 * @param scenario what was done, e.g. {@code broker kill -9 x5 (3 brokers)}
 * @param requests transfer requests in the log
 * @param acknowledged requests Kafka acknowledged to the router
 * @param refused requests the router's buffer refused while Kafka was away (never sent)
 * @param endedOnce requests with exactly one ending from the fleet's side
 * @param unended requests with none
 * @param endedTwice requests with two or more
 * @param lateOutcomes agent reports after a coordinator's verdict (the first ending is kept)
 * @param lost acknowledged requests missing from the log
 * @param duplicates events the log holds twice (redeliveries)
 * @param gaps sequence gaps of any producer
 * @param violations invariant breaks the fold found
 * @param bytesMaybeLate bytes that may have landed after the fleet published that their transfer failed: what
 *     sources reported {@code LANDED_AFTER_LEASE}, and completions after a failure their proof does not cover
 * @param bytesReportedLate bytes of completions published after a failure whose sources proved they landed
 *     before it (inside the lease, before the deadline): a late report, not a broken promise
 * @param stalled requests made after a killed peer was back that still timed out (they waited behind the dead one)
 * @param detect from each fault to the fleet's verdict on it (agent faults: to {@code peer.lost})
 * @param poison poison records written; {@code deadLettered} of them reached the dead-letter topic
 * @param restarts how long each restarted process took to be ready
 * @param examples a few transfers that broke the promise, with their endings
 * @param verdictsAfterReport late outcomes where a coordinator's verdict came after the source's report
 * @param completed requests the source completed
 * @param faults faults injected; each must have its restart (and, for an agent fault, its detection)
 * @param detectsAgentFaults whether each fault must be followed by a {@code peer.lost}
 * @param endedHow how the requests ended (their first ending), counted
 */
public record Figures(String scenario, long requests, long acknowledged, long refused, long endedOnce, long unended,
    long endedTwice, long lateOutcomes, long lost, long duplicates, long gaps, long violations,
    long bytesMaybeLate, long bytesReportedLate, long stalled, List<Duration> detect, long poison, long deadLettered,
    List<Duration> restarts,
    List<String> examples, long verdictsAfterReport, long completed, int faults, boolean detectsAgentFaults,
    java.util.SortedMap<String, Long> endedHow) {

  /** Whether the promise held: one ending each, nothing lost, doubled or moved after a failure, all poison dead-lettered. */
  public boolean held() {
    return unended == 0 && endedTwice == 0 && lost == 0 && duplicates == 0 && gaps == 0 && violations == 0
        && bytesMaybeLate == 0 && stalled == 0 && deadLettered == poison && requests > 0 && completed > 0
        && restarts.size() == faults && (!detectsAgentFaults || detect.size() == faults);
  }

  /** One paragraph for a console or RELIABILITY.md. */
  public String describe() {
    return "%s: %s%n  requests %d (acknowledged %d, refused by the router while Kafka was away %d), completed %d,"
        .formatted(scenario, held() ? "HELD" : "BROKEN", requests, acknowledged, refused, completed)
        + " ended once %d,".formatted(endedOnce)
        + " unended %d, ended twice or more %d, late outcomes %d (a verdict after the agent's report: %d)%n"
            .formatted(unended, endedTwice, lateOutcomes, verdictsAfterReport)
        + "  lost %d, duplicates %d, sequence gaps %d, violations %d, bytes that may have landed after a failure %d"
            .formatted(lost, duplicates, gaps, violations, bytesMaybeLate)
        + " (reported after one, proven landed before it: %d),".formatted(bytesReportedLate)
        + " timed out after the peer was back %d%n".formatted(stalled)
        + "  poison %d, dead-lettered %d; faults %d; time to detect %s; restart to ready %s"
            .formatted(poison, deadLettered, faults, range(detect), range(restarts))
        + "%n  ended: %s".formatted(endedHow)
        + String.join("", examples.stream().map(e -> "\n  broken: " + e).toList());
  }

  private static String range(List<Duration> durations) {
    if (durations.isEmpty()) {
      return "-";
    }
    long min = durations.stream().mapToLong(Duration::toMillis).min().orElseThrow();
    long max = durations.stream().mapToLong(Duration::toMillis).max().orElseThrow();
    return "%.1f-%.1f s (%d)".formatted(min / 1000.0, max / 1000.0, durations.size());
  }
}
