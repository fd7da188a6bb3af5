package io.kvfleet.engine.cuda;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import io.kvfleet.engine.cuda.internal.CudaEnums;
import io.kvfleet.engine.cuda.internal.CudaLayouts;
import io.kvfleet.engine.cuda.internal.Cudart;
import io.kvfleet.engine.internal.Calls;
import io.kvfleet.engine.internal.Hex;
import java.lang.foreign.Arena;
import java.lang.foreign.MemoryLayout.PathElement;
import java.lang.foreign.MemorySegment;
import java.util.HexFormat;
import java.util.Optional;

/**
 * One GPU as this process sees it (ordinals follow {@code CUDA_VISIBLE_DEVICES}; the PCI bus id
 * and UUID do not).
 *
 * @param ordinal the runtime's device number
 * @param name e.g. {@code NVIDIA H200}
 * @param uuid e.g. {@code GPU-5a1c...}, as nvidia-smi prints it
 * @param pciBusId e.g. {@code 0000:19:00.0}
 * @param computeMajor compute capability, major
 * @param computeMinor compute capability, minor
 * @param totalMemory device memory in bytes
 * @param multiprocessors streaming multiprocessors
 * @param unifiedAddressing whether device and host share one address space (needed for
 *     {@code cudaMemcpyDefault})
 * @param gpuDirectRdma whether a NIC can DMA into its memory
 */
public record CudaDevice(
    int ordinal,
    String name,
    String uuid,
    String pciBusId,
    int computeMajor,
    int computeMinor,
    long totalMemory,
    int multiprocessors,
    boolean unifiedAddressing,
    boolean gpuDirectRdma) {

  private static final long UUID_OFFSET =
      CudaLayouts.DEVICE_PROP_PREFIX.byteOffset(PathElement.groupElement("uuid"));
  private static final long TOTAL_MEMORY_OFFSET =
      CudaLayouts.DEVICE_PROP_PREFIX.byteOffset(PathElement.groupElement("totalGlobalMem"));

  /** {@code 0: NVIDIA H200 (sm_90, 139.8 GiB, PCI 0000:19:00.0)}. */
  public String summary() {
    return ordinal + ": " + name + " (sm_" + computeMajor + computeMinor + ", "
        + Hex.bytes(totalMemory) + ", PCI " + pciBusId + ")";
  }

  /** Reads device {@code ordinal}'s properties and attributes. */
  static CudaResult<CudaDevice> describe(int ordinal) {
    try (var arena = Arena.ofConfined()) {
      MemorySegment props = arena.allocate(CudaLayouts.DEVICE_PROP_BUFFER, 8);
      int status = (int) Cudart.GET_DEVICE_PROPERTIES.invokeExact(props, ordinal);
      if (status != 0) {
        return CudaResult.failure(CudaError.of("cudaGetDeviceProperties(" + ordinal + ")", status));
      }
      MemorySegment busId = arena.allocate(64);
      status = (int) Cudart.DEVICE_GET_PCI_BUS_ID.invokeExact(busId, 64, ordinal);
      if (status != 0) {
        return CudaResult.failure(CudaError.of("cudaDeviceGetPCIBusId(" + ordinal + ")", status));
      }
      int[] attributes = new int[5];
      int[] which = {CudaEnums.ATTR_COMPUTE_CAPABILITY_MAJOR, CudaEnums.ATTR_COMPUTE_CAPABILITY_MINOR,
          CudaEnums.ATTR_MULTIPROCESSOR_COUNT, CudaEnums.ATTR_UNIFIED_ADDRESSING,
          CudaEnums.ATTR_GPU_DIRECT_RDMA_SUPPORTED};
      MemorySegment value = arena.allocate(JAVA_INT);
      for (int i = 0; i < which.length; i++) {
        status = (int) Cudart.DEVICE_GET_ATTRIBUTE.invokeExact(value, which[i], ordinal);
        if (status != 0) {
          return CudaResult.failure(CudaError.of(
              "cudaDeviceGetAttribute(" + which[i] + ", " + ordinal + ")", status));
        }
        attributes[i] = value.get(JAVA_INT, 0);
      }
      return CudaResult.of(new CudaDevice(ordinal, props.getString(0), uuid(props),
          busId.getString(0), attributes[0], attributes[1],
          props.get(JAVA_LONG, TOTAL_MEMORY_OFFSET),
          attributes[2], attributes[3] != 0, attributes[4] != 0));
    } catch (Throwable t) {
      throw Calls.rethrow(t);
    }
  }

  /** Makes {@code ordinal} this thread's current device ({@code cudaSetDevice}). */
  static Optional<CudaError> select(int ordinal) {
    try {
      return CudaError.check("cudaSetDevice(" + ordinal + ")",
          (int) Cudart.SET_DEVICE.invokeExact(ordinal));
    } catch (Throwable t) {
      throw Calls.rethrow(t);
    }
  }

  /** The ordinal of the device at {@code pciBusId} in this process. */
  static CudaResult<Integer> byPciBusId(String pciBusId) {
    try (var arena = Arena.ofConfined()) {
      MemorySegment out = arena.allocate(JAVA_INT);
      int status = (int) Cudart.DEVICE_GET_BY_PCI_BUS_ID.invokeExact(out, arena.allocateFrom(pciBusId));
      return status == 0
          ? CudaResult.of(out.get(JAVA_INT, 0))
          : CudaResult.failure(CudaError.of("cudaDeviceGetByPCIBusId(" + pciBusId + ")", status));
    } catch (Throwable t) {
      throw Calls.rethrow(t);
    }
  }

  private static String uuid(MemorySegment props) {
    byte[] bytes = props.asSlice(UUID_OFFSET, 16).toArray(JAVA_BYTE);
    String hex = HexFormat.of().formatHex(bytes);
    return "GPU-" + hex.substring(0, 8) + "-" + hex.substring(8, 12) + "-" + hex.substring(12, 16)
        + "-" + hex.substring(16, 20) + "-" + hex.substring(20);
  }
}
