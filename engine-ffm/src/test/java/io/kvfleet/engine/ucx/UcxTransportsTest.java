package io.kvfleet.engine.ucx;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kvfleet.engine.EngineException;
import org.junit.jupiter.api.Test;

/** Which UCX_TLS a context gets: shared memory only, tcp only on purpose, the caller's explicit choice as given. */
class UcxTransportsTest {
  @Test
  void usesOnlyPosixAndSelfWhenNobodyChoseTheTransports() {
    assertThat(UcxTransports.chosen("", null, false)).isEqualTo("posix,self");
    assertThat(UcxTransports.chosen("", " ", false)).isEqualTo("posix,self");
  }

  @Test
  void addsTcpOnlyWhenTcpIsAllowed() {
    assertThat(UcxTransports.chosen("", null, true)).isEqualTo("posix,tcp,self");
  }

  @Test
  void leavesAnEnvironmentsUcxTlsWithoutTcpToUcx() {
    assertThat(UcxTransports.chosen("", "posix,sysv,cma,self", false)).isEmpty();
  }

  @Test
  void refusesAnEnvironmentsUcxTlsThatOpensTcpUnlessAllowed() {
    for (String tls : new String[] {"tcp", "posix,tcp", "all", "^cma", "^sysv,cma"}) {
      assertThatThrownBy(() -> UcxTransports.chosen("", tls, false)).as(tls)
          .isInstanceOf(EngineException.class).hasMessageContaining("UCX_TLS=" + tls).hasMessageContaining("--ucx-allow-tcp");
      assertThat(UcxTransports.chosen("", tls, true)).as(tls).isEmpty();
    }
  }

  @Test
  void readsWhetherAUcxTlsValueOpensTcp() {
    assertThat(UcxTransports.opensTcp("^tcp,cma")).isFalse();
    assertThat(UcxTransports.opensTcp("posix,self")).isFalse();
    assertThat(UcxTransports.opensTcp(" TCP ")).isTrue();
    assertThat(UcxTransports.opensTcp("^cma")).isTrue();
  }

  @Test
  void keepsTheEnginesConfiguredTransports() {
    assertThat(UcxTransports.chosen("tcp", "posix", false)).isEqualTo("tcp");
    assertThat(UcxTransports.chosen("posix,sysv,cma,self", "tcp", false)).isEqualTo("posix,sysv,cma,self");
  }
}
