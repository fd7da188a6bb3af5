package io.kvfleet.engine;

import static java.util.Objects.requireNonNull;

import io.kvfleet.engine.RegistrationOutcome.Failed;
import io.kvfleet.engine.RegistrationOutcome.Registered;
import io.kvfleet.engine.RegistrationOutcome.Skipped;
import java.util.List;
import java.util.Optional;

/** Every backend's outcome for one region, in backend priority order. */
public record RegistrationResult(RegionRequest request, List<RegistrationOutcome> outcomes) {

  public RegistrationResult {
    requireNonNull(request, "request must not be null");
    outcomes = List.copyOf(requireNonNull(outcomes, "outcomes must not be null"));
  }

  /** Whether at least one backend holds the region. */
  public boolean registered() {
    return outcomes.stream().anyMatch(Registered.class::isInstance);
  }

  /** The live registrations. */
  public List<Registration> registrations() {
    return outcomes.stream()
        .filter(Registered.class::isInstance)
        .map(o -> ((Registered) o).registration())
        .toList();
  }

  /** The registration with {@code backend}, if it accepted. */
  public Optional<Registration> registration(String backend) {
    return registrations().stream().filter(r -> r.backend().equals(backend)).findFirst();
  }

  /** The outcome of {@code backend}. */
  public Optional<RegistrationOutcome> outcome(String backend) {
    return outcomes.stream().filter(o -> o.backend().equals(backend)).findFirst();
  }

  /** The refusals. */
  public List<Failed> failures() {
    return outcomes.stream().filter(Failed.class::isInstance).map(Failed.class::cast).toList();
  }

  /** The entries nothing was attempted for. */
  public List<Skipped> skips() {
    return outcomes.stream().filter(Skipped.class::isInstance).map(Skipped.class::cast).toList();
  }
}
