package io.kvfleet.engine.ucx;

import io.kvfleet.engine.Diagnosis;
import io.kvfleet.engine.RegionRequest;
import io.kvfleet.engine.RegistrationFailure;
import io.kvfleet.engine.internal.Hex;
import io.kvfleet.engine.spi.RegisterResult;
import io.kvfleet.engine.ucx.internal.Ucp;

/**
 * VRAM through UCX. {@code ucp_mem_map} alone cannot be trusted: on a UCX without CUDA it returns
 * success for a "CUDA" pointer and treats it as host memory. So the context's memory types decide
 * first, and after a mapping {@code ucp_mem_query} must confirm UCX sees device memory.
 */
final class VramRegistration {
  private VramRegistration() {}

  static RegisterResult register(UcpContext context, UcxCapability capability,
      RegionRequest request, long address) {
    if (!capability.hasCuda()) {
      return new RegisterResult.Refused(Diagnosis.of(RegistrationFailure.NO_MEMORY_DOMAIN,
          request.regionId() + " (VRAM, device " + request.device() + "): "
              + capability.noCudaDetail()));
    }
    if (address == 0) {
      return new RegisterResult.Refused(Diagnosis.of(RegistrationFailure.INVALID_ADDRESS,
          request.regionId() + ": UCX registers device memory by address; open the device handle"
              + " with the cuda backend first"));
    }
    return switch (UcxMemory.register(context, address, request.length(), Ucp.MEMORY_TYPE_CUDA)) {
      case UcxMemory.Refused refused -> new RegisterResult.Refused(UcxFailures.diagnosis(
          refused.status(), refused.call(), request.describe()));
      case UcxMemory.Ok ok when ok.memory().memoryType() != Ucp.MEMORY_TYPE_CUDA -> {
        ok.memory().close();
        yield new RegisterResult.Refused(Diagnosis.of(RegistrationFailure.INVALID_ADDRESS,
            request.regionId() + ": ucp_mem_map accepted " + Hex.range(address, request.length())
                + " but UCX classified it as memory type " + ok.memory().memoryType()
                + ", not CUDA device memory"));
      }
      case UcxMemory.Ok ok -> new RegisterResult.Accepted(
          new UcxRegion(ok.memory(), address, request.length(), true));
    };
  }
}
