package io.kvfleet.control.bench;

/**
 * Routes a target's answers to the measurement of the phase now running; answers that arrive
 * between phases go to an idle measurement that started nothing and so records nothing.
 */
final class Meter implements Target.Answers {
  private volatile Measurement current = Measurement.openLoop();

  /** Makes {@code measurement} receive every answer from now on. */
  void install(Measurement measurement) {
    current = measurement;
  }

  @Override
  public void answered(long id, long atNanos, boolean ok) {
    current.answered(id, atNanos, ok);
  }
}
