package io.kvfleet.engine.ucx;

import io.kvfleet.engine.Capability;
import io.kvfleet.engine.MemoryType;
import io.kvfleet.engine.internal.Calls;
import io.kvfleet.engine.ucx.internal.Ucp;
import java.lang.foreign.MemorySegment;
import java.util.List;

/** What one UCX context offers: memory types, memory domains, transports, version. */
@SuppressWarnings("restricted") // FFM by design: native addresses from libc and UCX
record UcxCapability(
    String version, long memoryTypeMask, List<String> memoryDomains, List<String> transports,
    String tls) {

  static UcxCapability probe(UcpContext context, String tls) {
    String info = context.info();
    return new UcxCapability(libraryVersion(), context.memoryTypes(), UcxInfo.memoryDomains(info),
        UcxInfo.transports(info), tls);
  }

  static String libraryVersion() {
    try {
      MemorySegment text = (MemorySegment) Ucp.GET_VERSION_STRING.invokeExact();
      return text.reinterpret(64).getString(0);
    } catch (Throwable t) {
      throw Calls.rethrow(t);
    }
  }

  boolean hasCuda() {
    return memoryTypes().contains(MemoryType.VRAM);
  }

  List<MemoryType> memoryTypes() {
    return UcxInfo.memoryTypes(memoryTypeMask);
  }

  /** "this UCX has no CUDA memory domain (...); transports: tcp, sysv, posix, cma". */
  String noCudaDetail() {
    return "this UCX " + version + " has no CUDA memory domain (memory types: "
        + UcxInfo.memoryTypeNames(memoryTypeMask) + "; memory domains: "
        + String.join(", ", memoryDomains) + "); transports: " + String.join(", ", transports);
  }

  Capability capability() {
    String detail = hasCuda() ? "" : "no cuda memory domain: VRAM cannot be registered";
    if (!tls.isEmpty()) {
      detail = (detail.isEmpty() ? "" : detail + "; ") + "UCX_TLS=" + tls;
    }
    return new Capability(UcxBackend.NAME, true, version, memoryTypes(), transports, true, detail);
  }
}
