package io.kvfleet.events.replay;

import static java.util.Objects.requireNonNull;

import java.util.List;

/**
 * The causal chain behind one transfer, region or node: a one-paragraph answer, then the events
 * it rests on in replay order.
 *
 * @param entity {@code transfer}, {@code region} or {@code node}
 * @param id the entity's id ({@code node/region} for a region)
 * @param found whether the log knows the entity at all
 * @param summary the answer, in sentences
 * @param steps the events cited, in replay order
 */
public record Explanation(String entity, String id, boolean found, String summary, List<Step> steps) {
  public Explanation {
    requireNonNull(entity, "entity must not be null");
    requireNonNull(id, "id must not be null");
    requireNonNull(summary, "summary must not be null");
    steps = List.copyOf(requireNonNull(steps, "steps must not be null"));
  }

  /**
   * One event of the chain.
   *
   * @param time when its producer wrote it
   * @param position where it is in the log
   * @param type its wire type
   * @param text what it says, in words
   * @param event the event itself, for tools
   */
  public record Step(java.time.Instant time, LogPosition position, String type, String text,
      io.kvfleet.events.FleetEvent event) {
    public Step {
      requireNonNull(time, "time must not be null");
      requireNonNull(position, "position must not be null");
      requireNonNull(type, "type must not be null");
      requireNonNull(text, "text must not be null");
      requireNonNull(event, "event must not be null");
    }

    static Step of(Fact fact, String text) {
      return new Step(fact.time(), fact.position(), fact.event().wireType(), text, fact.event());
    }
  }
}
