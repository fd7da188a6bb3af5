package io.kvfleet.engine;

import io.kvfleet.engine.internal.Hex;
import java.util.Optional;

/**
 * The engine's one exception type, for what is not an expected outcome: misuse, malformed input,
 * a native call failing where it never should, or an allocation that cannot be met. Factories are
 * named after the situation; messages carry the address, size and native code.
 */
public final class EngineException extends RuntimeException {
  private final long nativeCode;
  private final transient Diagnosis diagnosis;
  private final TransferFailure transferFailure;
  private final boolean busy;

  private EngineException(String message, long nativeCode, Diagnosis diagnosis, Throwable cause) {
    this(message, nativeCode, diagnosis, cause, null, false);
  }

  private EngineException(String message, long nativeCode, Diagnosis diagnosis, Throwable cause,
      TransferFailure transferFailure) {
    this(message, nativeCode, diagnosis, cause, transferFailure, false);
  }

  private EngineException(String message, long nativeCode, Diagnosis diagnosis, Throwable cause,
      TransferFailure transferFailure, boolean busy) {
    super(message, cause);
    this.nativeCode = nativeCode;
    this.diagnosis = diagnosis;
    this.transferFailure = transferFailure;
    this.busy = busy;
  }

  /** Whether the call was refused only for now: what it touches is in use, and the same call may succeed later. */
  public boolean busy() {
    return busy;
  }

  /** The native status or errno behind this failure, 0 when none. */
  public long nativeCode() {
    return nativeCode;
  }

  /** The reason a transfer through this failure fails, when it has one (a peer no transport reaches). */
  public Optional<TransferFailure> transferFailure() {
    return Optional.ofNullable(transferFailure);
  }

  /** The registration taxonomy's view of this failure, when it has one (allocation failures). */
  public Optional<Diagnosis> diagnosis() {
    return Optional.ofNullable(diagnosis);
  }

  /** A native call that should not fail did. */
  public static EngineException nativeCallFailed(
      String call, long code, String nativeMessage, String context) {
    return new EngineException(
        call + " failed with " + code + " (" + nativeMessage + ")" + suffix(context), code, null, null);
  }

  /** Bytes from a peer or the control plane could not be parsed. */
  public static EngineException malformed(String what, String detail) {
    return new EngineException("malformed " + what + ": " + detail, 0, null, null);
  }

  /** A peer could not be reached. */
  public static EngineException connectFailed(
      String backend, String detail, long code, String nativeMessage) {
    String nativePart = code == 0 ? "" : " [native " + code + ": " + nativeMessage + "]";
    return new EngineException(
        "cannot connect through " + backend + ": " + detail + nativePart, code, null, null);
  }

  /**
   * The peer's worker offers no transport this engine may use (e.g. tcp only, where tcp is off):
   * every transfer to it fails {@link TransferFailure#NO_COMMON_TRANSPORT}.
   */
  public static EngineException noCommonTransport(
      String backend, String detail, long code, String nativeMessage) {
    return new EngineException("cannot connect through " + backend + ": " + detail + " [native " + code + ": "
        + nativeMessage + "]", code, null, null, TransferFailure.NO_COMMON_TRANSPORT);
  }

  /** UCX was asked for tcp (by {@code where}) without the operator's opt-in. */
  public static EngineException tcpNotAllowed(String where) {
    return new EngineException(where + " lets UCX use tcp, which serves RMA to any process that reaches this"
        + " node's TCP port (any address of this process, unchecked by UCX 1.13); allow it on purpose with"
        + " --ucx-allow-tcp (EngineConfig.withUcxAllowTcp), or leave tcp out (docs/SECURITY.md, F0)", 0, null, null);
  }

  /** A peer's remote key could not be imported. */
  public static EngineException attachFailed(String key, long code, String nativeMessage) {
    return new EngineException(
        "cannot attach " + key + " [native " + code + ": " + nativeMessage + "]", code, null, null);
  }

  /** The caller named a backend this engine does not have loaded. */
  public static EngineException backendNotAvailable(String backend, String detail) {
    return new EngineException("backend " + backend + " is not available: " + detail, 0, null, null);
  }

  /** Memory for an engine-owned buffer could not be allocated. */
  public static EngineException allocationFailed(String name, long length, Diagnosis diagnosis) {
    return new EngineException(
        "cannot allocate " + name + " (" + length + " bytes, " + Hex.bytes(length) + "): "
            + diagnosis.summary(),
        diagnosis.nativeCode(),
        diagnosis,
        null);
  }

  /** Engine-owned memory was freed while regions on it were still registered. */
  public static EngineException stillRegistered(String name, long address, long length, int live) {
    return new EngineException(
        name + " (" + Hex.range(address, length) + ") still has " + live
            + " live registration(s); deregister them first",
        0,
        null,
        null);
  }

  /** A region was deregistered while transfer batches still touch it. */
  public static EngineException busy(String what, int inFlight) {
    return new EngineException(
        what + " has " + inFlight + " transfer batch(es) in flight; await them first", 0, null, null, null, true);
  }

  /** An object was used after close. */
  public static EngineException closed(String what) {
    return new EngineException(what + " is closed", 0, null, null);
  }

  /** An object from another engine, peer or backend was handed in. */
  public static EngineException foreign(String what, String detail) {
    return new EngineException(what + " does not belong here: " + detail, 0, null, null);
  }

  private static String suffix(String context) {
    return context == null || context.isEmpty() ? "" : ": " + context;
  }
}
