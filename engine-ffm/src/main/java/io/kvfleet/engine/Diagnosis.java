package io.kvfleet.engine;

import static java.util.Objects.requireNonNull;

/**
 * What went wrong with a registration, for a person reading the event.
 *
 * @param reason the taxonomy entry
 * @param detail what happened, with the address, size and call (e.g. "this UCX has no CUDA memory
 *     domain; transports: tcp, sysv, posix, cma")
 * @param nativeCode the native status or errno, 0 when no native call failed
 * @param nativeMessage the native library's own message, empty when none
 * @param remediation what to change
 */
public record Diagnosis(
    RegistrationFailure reason,
    String detail,
    long nativeCode,
    String nativeMessage,
    String remediation) {

  public Diagnosis {
    requireNonNull(reason, "reason must not be null");
    requireNonNull(detail, "detail must not be null (use \"\")");
    requireNonNull(nativeMessage, "nativeMessage must not be null (use \"\")");
    requireNonNull(remediation, "remediation must not be null (use \"\")");
  }

  /** A diagnosis from a check of our own, with the reason's general remediation. */
  public static Diagnosis of(RegistrationFailure reason, String detail) {
    return new Diagnosis(reason, detail, 0, "", reason.remediation());
  }

  /** A diagnosis from a failed native call. */
  public static Diagnosis ofNative(
      RegistrationFailure reason, String detail, long nativeCode, String nativeMessage) {
    return new Diagnosis(reason, detail, nativeCode, nativeMessage, reason.remediation());
  }

  /** The same diagnosis with a more specific remediation. */
  public Diagnosis withRemediation(String newRemediation) {
    return new Diagnosis(reason, detail, nativeCode, nativeMessage, newRemediation);
  }

  /** One line: reason, detail, native code and message. */
  public String summary() {
    String nativePart = nativeCode == 0 && nativeMessage.isEmpty()
        ? ""
        : " [native " + nativeCode + (nativeMessage.isEmpty() ? "" : ": " + nativeMessage) + "]";
    return reason + ": " + detail + nativePart;
  }
}
