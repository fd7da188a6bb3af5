package io.kvfleet.engine.cuda.internal;

import static java.lang.foreign.MemoryLayout.paddingLayout;
import static java.lang.foreign.MemoryLayout.sequenceLayout;
import static java.lang.foreign.MemoryLayout.structLayout;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.MemoryLayout.PathElement;
import java.lang.foreign.StructLayout;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Map;

/**
 * The CUDA structs the binding reads or passes, field for field as in {@code driver_types.h}
 * (x86-64 and aarch64 LP64). {@code CudaLayoutConformanceTest} compiles a C program against the
 * installed headers and compares every size and offset with these.
 */
public final class CudaLayouts {
  private CudaLayouts() {}

  /** {@code CUDA_IPC_HANDLE_SIZE}. */
  public static final int IPC_HANDLE_SIZE = 64;

  /** {@code struct cudaPointerAttributes}: what a pointer is and where it lives. */
  public static final StructLayout POINTER_ATTRIBUTES = structLayout(
      JAVA_INT.withName("type"),
      JAVA_INT.withName("device"),
      JAVA_LONG.withName("devicePointer"),
      JAVA_LONG.withName("hostPointer"),
      sequenceLayout(8, JAVA_LONG).withName("reserved")).withName("cudaPointerAttributes");

  /** {@code cudaIpcMemHandle_t}: opaque, passed by value to {@code cudaIpcOpenMemHandle}. */
  public static final StructLayout IPC_MEM_HANDLE = structLayout(
      sequenceLayout(IPC_HANDLE_SIZE, JAVA_BYTE).withName("reserved")).withName("cudaIpcMemHandle_t");

  /**
   * The first fields of {@code struct cudaDeviceProp}, the only ones read. The struct is large and
   * changes between CUDA versions after these fields, so the call gets a {@link
   * #DEVICE_PROP_BUFFER}-byte buffer; the conformance test checks that the struct fits.
   */
  public static final StructLayout DEVICE_PROP_PREFIX = structLayout(
      sequenceLayout(256, JAVA_BYTE).withName("name"),
      sequenceLayout(16, JAVA_BYTE).withName("uuid"),
      sequenceLayout(8, JAVA_BYTE).withName("luid"),
      JAVA_INT.withName("luidDeviceNodeMask"),
      paddingLayout(4),
      JAVA_LONG.withName("totalGlobalMem")).withName("cudaDeviceProp");

  /** Bytes handed to {@code cudaGetDeviceProperties}: room for any 12.x or 13.x layout. */
  public static final long DEVICE_PROP_BUFFER = 4096;

  /** Every struct above by C name, for the conformance test. */
  public static final Map<String, StructLayout> ALL = Map.of(
      "struct cudaPointerAttributes", POINTER_ATTRIBUTES,
      "cudaIpcMemHandle_t", IPC_MEM_HANDLE);

  /** A handle to {@code field} of {@code layout}, taking only the segment. */
  public static VarHandle field(StructLayout layout, String field) {
    return MethodHandles.insertCoordinates(
        layout.varHandle(PathElement.groupElement(field)), 1, 0L);
  }
}
