package io.kvfleet.engine.ucx;

import static org.assertj.core.api.Assertions.assertThat;

import io.kvfleet.engine.RegistrationFailure;
import io.kvfleet.engine.ucx.internal.UcsStatus;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** UCX statuses land on the right taxonomy entries, and status pointers decode as UCX defines. */
class UcxFailuresTest {

  @ParameterizedTest
  @CsvSource({
      "-4, OUT_OF_MEMORY",
      "-21, OUT_OF_MEMORY",
      "-7, INVALID_ADDRESS",
      "-14, DEVICE_UNAVAILABLE",
      "-22, MEMORY_TYPE_UNSUPPORTED",
      "-18, DUPLICATE_REGISTRATION",
      "-5, BACKEND_ERROR",
      "-3, BACKEND_ERROR"})
  void mapsAStatusToItsReason(int status, RegistrationFailure reason) {
    assertThat(UcxFailures.reasonFor(status)).isEqualTo(reason);
  }

  @Test
  void decodesStatusPointersTheWayUcsPtrStatusDoes() {
    assertThat(UcsStatus.of(0)).isEqualTo(UcsStatus.OK);
    assertThat(UcsStatus.of(-4L)).isEqualTo(UcsStatus.ERR_NO_MEMORY);
    assertThat(UcsStatus.isError(-100L)).isTrue();
    assertThat(UcsStatus.isError(-101L)).isFalse();
    assertThat(UcsStatus.isRequest(0x7f00_0000_1000L)).isTrue();
    assertThat(UcsStatus.of(0x7f00_0000_1000L)).isEqualTo(UcsStatus.INPROGRESS);
  }

  @Test
  void namesAStatusAndQuotesUcxsOwnMessage() {
    assertThat(UcsStatus.name(-4)).isEqualTo("UCS_ERR_NO_MEMORY");
    assertThat(UcsStatus.name(-99)).isEqualTo("UCS status -99");
  }
}
