package io.kvfleet.engine.cuda.internal;

import java.util.Map;

/** The CUDA enum values and flags the binding passes; the conformance test checks each by name. */
public final class CudaEnums {
  private CudaEnums() {}

  /** {@code enum cudaMemoryType}. */
  public static final int MEMORY_TYPE_UNREGISTERED = 0;
  public static final int MEMORY_TYPE_HOST = 1;
  public static final int MEMORY_TYPE_DEVICE = 2;
  public static final int MEMORY_TYPE_MANAGED = 3;

  /** {@code enum cudaMemcpyKind}. */
  public static final int MEMCPY_HOST_TO_DEVICE = 1;
  public static final int MEMCPY_DEVICE_TO_HOST = 2;
  public static final int MEMCPY_DEVICE_TO_DEVICE = 3;
  public static final int MEMCPY_DEFAULT = 4;

  /** {@code enum cudaDeviceAttr}. */
  public static final int ATTR_MULTIPROCESSOR_COUNT = 16;
  public static final int ATTR_UNIFIED_ADDRESSING = 41;
  public static final int ATTR_COMPUTE_CAPABILITY_MAJOR = 75;
  public static final int ATTR_COMPUTE_CAPABILITY_MINOR = 76;
  public static final int ATTR_GPU_DIRECT_RDMA_SUPPORTED = 116;

  public static final int HOST_ALLOC_DEFAULT = 0;
  public static final int HOST_REGISTER_DEFAULT = 0;
  public static final int IPC_MEM_LAZY_ENABLE_PEER_ACCESS = 1;
  public static final int STREAM_NON_BLOCKING = 1;
  public static final int EVENT_DISABLE_TIMING = 2;

  /** Every value above by its C name. */
  public static final Map<String, Integer> ALL = Map.ofEntries(
      Map.entry("cudaMemoryTypeUnregistered", MEMORY_TYPE_UNREGISTERED),
      Map.entry("cudaMemoryTypeHost", MEMORY_TYPE_HOST),
      Map.entry("cudaMemoryTypeDevice", MEMORY_TYPE_DEVICE),
      Map.entry("cudaMemoryTypeManaged", MEMORY_TYPE_MANAGED),
      Map.entry("cudaMemcpyHostToDevice", MEMCPY_HOST_TO_DEVICE),
      Map.entry("cudaMemcpyDeviceToHost", MEMCPY_DEVICE_TO_HOST),
      Map.entry("cudaMemcpyDeviceToDevice", MEMCPY_DEVICE_TO_DEVICE),
      Map.entry("cudaMemcpyDefault", MEMCPY_DEFAULT),
      Map.entry("cudaDevAttrMultiProcessorCount", ATTR_MULTIPROCESSOR_COUNT),
      Map.entry("cudaDevAttrUnifiedAddressing", ATTR_UNIFIED_ADDRESSING),
      Map.entry("cudaDevAttrComputeCapabilityMajor", ATTR_COMPUTE_CAPABILITY_MAJOR),
      Map.entry("cudaDevAttrComputeCapabilityMinor", ATTR_COMPUTE_CAPABILITY_MINOR),
      Map.entry("cudaDevAttrGPUDirectRDMASupported", ATTR_GPU_DIRECT_RDMA_SUPPORTED),
      Map.entry("cudaHostAllocDefault", HOST_ALLOC_DEFAULT),
      Map.entry("cudaHostRegisterDefault", HOST_REGISTER_DEFAULT),
      Map.entry("cudaIpcMemLazyEnablePeerAccess", IPC_MEM_LAZY_ENABLE_PEER_ACCESS),
      Map.entry("cudaStreamNonBlocking", STREAM_NON_BLOCKING),
      Map.entry("cudaEventDisableTiming", EVENT_DISABLE_TIMING));
}
