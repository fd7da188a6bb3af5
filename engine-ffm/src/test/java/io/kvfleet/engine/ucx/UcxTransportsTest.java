package io.kvfleet.engine.ucx;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Which UCX_TLS a context gets: cma is out unless someone chose the transports. */
class UcxTransportsTest {
  @Test
  void excludesCmaWhenNobodyChoseTheTransports() {
    assertThat(UcxTransports.chosen("", null)).isEqualTo("^cma");
    assertThat(UcxTransports.chosen("", " ")).isEqualTo("^cma");
  }

  @Test
  void leavesTheEnvironmentsUcxTlsToUcx() {
    assertThat(UcxTransports.chosen("", "posix,sysv,cma,self")).isEmpty();
  }

  @Test
  void keepsTheEnginesConfiguredTransports() {
    assertThat(UcxTransports.chosen("tcp", "posix")).isEqualTo("tcp");
    assertThat(UcxTransports.chosen("posix,sysv,cma,self", null)).isEqualTo("posix,sysv,cma,self");
  }
}
