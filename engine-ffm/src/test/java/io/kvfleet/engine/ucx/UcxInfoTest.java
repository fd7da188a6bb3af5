package io.kvfleet.engine.ucx;

import static org.assertj.core.api.Assertions.assertThat;

import io.kvfleet.engine.MemoryType;
import org.junit.jupiter.api.Test;

/** Reading UCX's printed context and endpoint descriptions (samples from UCX 1.13.1). */
class UcxInfoTest {
  private static final String CONTEXT = """
      #
      # UCP context
      #
      #     component 0  :  self
      #     component 1  :  tcp
      #     component 4  :  ib
      #     component 6  :  cma
      #
      #            md 0  :  component 0  self\s
      #            md 1  :  component 1  tcp\s
      #            md 2  :  component 2  sysv\s
      #            md 3  :  component 3  posix\s
      #            md 4  :  component 6  cma\s
      #
      #      resource 0  :  md 0  dev 0  flags -- self/memory0
      #      resource 1  :  md 1  dev 1  flags -- tcp/lo
      #      resource 2  :  md 1  dev 2  flags -- tcp/eth0
      #      resource 3  :  md 2  dev 3  flags -- sysv/memory
      #      resource 4  :  md 3  dev 3  flags -- posix/memory
      #      resource 5  :  md 4  dev 3  flags -- cma/memory
      """;

  private static final String ENDPOINT = """
      #                 lane[0]:  3:sysv/memory.0 md[2]           -> md[2]/sysv/sysdev[255] am am_bw#0
      #                 lane[1]:  4:posix/memory.0 md[3]          -> md[3]/posix/sysdev[255] rma_bw#0
      #                 lane[2]:  5:cma/memory.0 md[4]            -> md[4]/cma/sysdev[255] rma_bw#1
      """;

  @Test
  void readsTheMemoryDomainsOfAContext() {
    assertThat(UcxInfo.memoryDomains(CONTEXT)).containsExactly("self", "tcp", "sysv", "posix", "cma");
  }

  @Test
  void readsEachTransportOnceInResourceOrder() {
    assertThat(UcxInfo.transports(CONTEXT)).containsExactly("self", "tcp", "sysv", "posix", "cma");
  }

  @Test
  void readsTheTransportsOfAnEndpointsLanes() {
    assertThat(UcxInfo.laneTransports(ENDPOINT)).containsExactly("sysv", "posix", "cma");
  }

  @Test
  void mapsHostAndCudaMemoryTypesToDramAndVram() {
    assertThat(UcxInfo.memoryTypes(0b1)).containsExactly(MemoryType.DRAM);
    assertThat(UcxInfo.memoryTypes(0b111)).containsExactly(MemoryType.DRAM, MemoryType.VRAM);
    assertThat(UcxInfo.memoryTypeNames(0b11)).isEqualTo("host, cuda");
  }
}
