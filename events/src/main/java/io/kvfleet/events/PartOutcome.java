package io.kvfleet.events;

import static java.util.Objects.requireNonNull;

/**
 * What a completed request transfer moved of one component.
 *
 * @param buffers how many buffers (layers) of the component it wrote
 * @param checksum CRC-32C of the component's moved bytes as hex when asked for, else empty
 */
public record PartOutcome(String component, int buffers, long bytes, String checksum) {
  public PartOutcome {
    requireNonNull(component, "component must not be null");
    requireNonNull(checksum, "checksum must not be null (use \"\")");
    Checks.notNegative("bytes", bytes);
  }
}
