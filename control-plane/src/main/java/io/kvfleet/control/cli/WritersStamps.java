package io.kvfleet.control.cli;

import io.kvfleet.control.kafka.FleetTopics;
import java.io.PrintStream;

/**
 * Tells an operator reading a log whose topics keep their writers' record stamps (made before kvfleet
 * stamped them with the broker's clock) what that means for a replay until a time.
 */
final class WritersStamps {
  private WritersStamps() {}

  /** Prints the note to {@code err} for {@code command} when a fleet topic at {@code bootstrapServers} keeps writers' stamps. */
  static void note(String command, String bootstrapServers, PrintStream err) {
    var topics = FleetTopics.writersStamped(bootstrapServers);
    if (!topics.isEmpty()) {
      err.println("kvfleet " + command + ": note: " + String.join(", ", topics) + " keep their writers' record stamps"
          + " (CreateTime): a record stamped ahead holds back the later records of its partition from a replay"
          + " --until a time before it; a full replay lists such records (TIMESTAMP_REGRESSION). docs/FLEET.md says"
          + " how to give the topics the broker's stamps.");
    }
  }
}
