package io.kvfleet.engine.ucx.internal;

import io.kvfleet.engine.internal.Calls;
import java.lang.foreign.MemorySegment;
import java.util.Map;

/** {@code ucs_status_t} values, names and messages, and the {@code ucs_status_ptr_t} convention. */
@SuppressWarnings("restricted") // FFM by design: native addresses from libc and UCX
public final class UcsStatus {
  private UcsStatus() {}

  public static final int OK = 0;
  public static final int INPROGRESS = 1;
  public static final int ERR_NO_RESOURCE = -2;
  public static final int ERR_IO_ERROR = -3;
  public static final int ERR_NO_MEMORY = -4;
  public static final int ERR_INVALID_PARAM = -5;
  public static final int ERR_UNREACHABLE = -6;
  public static final int ERR_INVALID_ADDR = -7;
  public static final int ERR_NOT_IMPLEMENTED = -8;
  public static final int ERR_NO_DEVICE = -14;
  public static final int ERR_BUSY = -15;
  public static final int ERR_CANCELED = -16;
  public static final int ERR_SHMEM_SEGMENT = -17;
  public static final int ERR_ALREADY_EXISTS = -18;
  public static final int ERR_OUT_OF_RANGE = -19;
  public static final int ERR_TIMED_OUT = -20;
  public static final int ERR_EXCEEDS_LIMIT = -21;
  public static final int ERR_UNSUPPORTED = -22;
  public static final int ERR_REJECTED = -23;
  public static final int ERR_NOT_CONNECTED = -24;
  public static final int ERR_CONNECTION_RESET = -25;
  public static final int ERR_FIRST_LINK_FAILURE = -40;
  public static final int ERR_ENDPOINT_TIMEOUT = -80;
  public static final int ERR_LAST_ENDPOINT_FAILURE = -89;
  /** {@code UCS_ERR_LAST}: status pointers at or above {@code (uintptr_t) -100} are errors. */
  public static final int ERR_LAST = -100;

  private static final Map<Integer, String> NAMES = Map.ofEntries(
      Map.entry(OK, "UCS_OK"),
      Map.entry(INPROGRESS, "UCS_INPROGRESS"),
      Map.entry(-1, "UCS_ERR_NO_MESSAGE"),
      Map.entry(ERR_NO_RESOURCE, "UCS_ERR_NO_RESOURCE"),
      Map.entry(ERR_IO_ERROR, "UCS_ERR_IO_ERROR"),
      Map.entry(ERR_NO_MEMORY, "UCS_ERR_NO_MEMORY"),
      Map.entry(ERR_INVALID_PARAM, "UCS_ERR_INVALID_PARAM"),
      Map.entry(ERR_UNREACHABLE, "UCS_ERR_UNREACHABLE"),
      Map.entry(ERR_INVALID_ADDR, "UCS_ERR_INVALID_ADDR"),
      Map.entry(ERR_NOT_IMPLEMENTED, "UCS_ERR_NOT_IMPLEMENTED"),
      Map.entry(ERR_NO_DEVICE, "UCS_ERR_NO_DEVICE"),
      Map.entry(ERR_BUSY, "UCS_ERR_BUSY"),
      Map.entry(ERR_CANCELED, "UCS_ERR_CANCELED"),
      Map.entry(ERR_SHMEM_SEGMENT, "UCS_ERR_SHMEM_SEGMENT"),
      Map.entry(ERR_ALREADY_EXISTS, "UCS_ERR_ALREADY_EXISTS"),
      Map.entry(ERR_OUT_OF_RANGE, "UCS_ERR_OUT_OF_RANGE"),
      Map.entry(ERR_TIMED_OUT, "UCS_ERR_TIMED_OUT"),
      Map.entry(ERR_EXCEEDS_LIMIT, "UCS_ERR_EXCEEDS_LIMIT"),
      Map.entry(ERR_UNSUPPORTED, "UCS_ERR_UNSUPPORTED"),
      Map.entry(ERR_REJECTED, "UCS_ERR_REJECTED"),
      Map.entry(ERR_NOT_CONNECTED, "UCS_ERR_NOT_CONNECTED"),
      Map.entry(ERR_CONNECTION_RESET, "UCS_ERR_CONNECTION_RESET"),
      Map.entry(ERR_ENDPOINT_TIMEOUT, "UCS_ERR_ENDPOINT_TIMEOUT"));

  /** Whether a {@code ucs_status_ptr_t} is an error code. */
  public static boolean isError(long statusPointer) {
    return Long.compareUnsigned(statusPointer, ERR_LAST) >= 0;
  }

  /** Whether a {@code ucs_status_ptr_t} is a request to wait for. */
  public static boolean isRequest(long statusPointer) {
    return statusPointer != 0 && !isError(statusPointer);
  }

  /** The status a status pointer carries (OK, INPROGRESS for a request, or the error). */
  public static int of(long statusPointer) {
    if (statusPointer == 0) {
      return OK;
    }
    return isError(statusPointer) ? (int) statusPointer : INPROGRESS;
  }

  /** {@code UCS_ERR_NO_MEMORY}, or {@code UCS status -42} for a code this table lacks. */
  public static String name(int status) {
    return NAMES.getOrDefault(status, "UCS status " + status);
  }

  /** UCX's own message ({@code ucs_status_string}). */
  public static String message(int status) {
    try {
      MemorySegment text = (MemorySegment) Ucp.STATUS_STRING.invokeExact(status);
      return text.equals(MemorySegment.NULL) ? name(status) : text.reinterpret(256).getString(0);
    } catch (Throwable t) {
      throw Calls.rethrow(t);
    }
  }

  /** {@code UCS_ERR_NO_MEMORY (Out of memory)}. */
  public static String describe(int status) {
    return name(status) + " (" + message(status) + ")";
  }
}
