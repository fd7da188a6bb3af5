package io.kvfleet.engine.ucx;

import io.kvfleet.engine.Diagnosis;
import io.kvfleet.engine.RegistrationFailure;
import io.kvfleet.engine.TransferFailure;
import io.kvfleet.engine.ucx.internal.UcsStatus;

/** Maps UCX statuses onto the registration taxonomy. */
final class UcxFailures {
  private UcxFailures() {}

  /** The taxonomy entry for a failed {@code ucp_mem_map} (or the calls right after it). */
  static RegistrationFailure reasonFor(int status) {
    return switch (status) {
      case UcsStatus.ERR_NO_MEMORY, UcsStatus.ERR_EXCEEDS_LIMIT, UcsStatus.ERR_NO_RESOURCE ->
          RegistrationFailure.OUT_OF_MEMORY;
      case UcsStatus.ERR_INVALID_ADDR, UcsStatus.ERR_OUT_OF_RANGE ->
          RegistrationFailure.INVALID_ADDRESS;
      case UcsStatus.ERR_NO_DEVICE -> RegistrationFailure.DEVICE_UNAVAILABLE;
      case UcsStatus.ERR_UNSUPPORTED -> RegistrationFailure.MEMORY_TYPE_UNSUPPORTED;
      case UcsStatus.ERR_ALREADY_EXISTS -> RegistrationFailure.DUPLICATE_REGISTRATION;
      default -> RegistrationFailure.BACKEND_ERROR;
    };
  }

  /** Statuses after which the endpoint is dead: the peer is gone or unreachable. */
  static TransferFailure transferFailure(int status) {
    boolean endpointGone = status == UcsStatus.ERR_ENDPOINT_TIMEOUT
        || status == UcsStatus.ERR_CONNECTION_RESET
        || status == UcsStatus.ERR_NOT_CONNECTED
        || status == UcsStatus.ERR_UNREACHABLE
        || (status <= UcsStatus.ERR_FIRST_LINK_FAILURE && status >= UcsStatus.ERR_LAST_ENDPOINT_FAILURE);
    return endpointGone ? TransferFailure.PEER_LOST : TransferFailure.TRANSPORT_ERROR;
  }

  /** A diagnosis for a failed call, with UCX's status name and message. */
  static Diagnosis diagnosis(int status, String call, String what) {
    return Diagnosis.ofNative(reasonFor(status), call + " failed for " + what, status,
        UcsStatus.describe(status));
  }
}
