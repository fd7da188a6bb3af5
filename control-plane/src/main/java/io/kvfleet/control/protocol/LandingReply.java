package io.kvfleet.control.protocol;

import java.util.Optional;

/**
 * What a destination's agent answers a staged chunk with: landed, or refused with why.
 *
 * @param refused why the chunk did not land; null once it landed
 */
public record LandingReply(Landings.Refused refused) {
  /** The chunk is in the destination's memory. */
  public static LandingReply landed() {
    return new LandingReply(null);
  }

  /** Why the chunk did not land, or empty once it did. */
  public Optional<Landings.Refused> refusal() {
    return Optional.ofNullable(refused);
  }
}
