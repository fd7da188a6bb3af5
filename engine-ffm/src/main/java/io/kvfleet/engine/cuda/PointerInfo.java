package io.kvfleet.engine.cuda;

import static java.lang.foreign.ValueLayout.JAVA_LONG;

import io.kvfleet.engine.cuda.internal.CudaEnums;
import io.kvfleet.engine.cuda.internal.CudaLayouts;
import io.kvfleet.engine.cuda.internal.Cudart;
import io.kvfleet.engine.cuda.internal.Libcuda;
import io.kvfleet.engine.cuda.internal.LibcudaLibrary;
import io.kvfleet.engine.internal.Calls;
import io.kvfleet.engine.internal.Hex;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.VarHandle;

/**
 * What CUDA says about one pointer ({@code cudaPointerGetAttributes}) and, when the driver library
 * is there, the allocation around it ({@code cuMemGetAddressRange}).
 *
 * @param address the pointer asked about
 * @param type the {@code cudaMemoryType}
 * @param device the device it was allocated on or registered with
 * @param devicePointer where a kernel on the current device reaches it, 0 when it cannot
 * @param hostPointer where the host reaches it, 0 when it cannot
 * @param allocationBase the start of its allocation, 0 when unknown
 * @param allocationSize the size of its allocation, -1 when unknown
 */
public record PointerInfo(
    long address,
    int type,
    int device,
    long devicePointer,
    long hostPointer,
    long allocationBase,
    long allocationSize) {

  private static final VarHandle TYPE = CudaLayouts.field(CudaLayouts.POINTER_ATTRIBUTES, "type");
  private static final VarHandle DEVICE = CudaLayouts.field(CudaLayouts.POINTER_ATTRIBUTES, "device");
  private static final VarHandle DEVICE_POINTER =
      CudaLayouts.field(CudaLayouts.POINTER_ATTRIBUTES, "devicePointer");
  private static final VarHandle HOST_POINTER =
      CudaLayouts.field(CudaLayouts.POINTER_ATTRIBUTES, "hostPointer");

  /** Whether it is device memory ({@code cudaMemoryTypeDevice}). */
  public boolean isDevice() {
    return type == CudaEnums.MEMORY_TYPE_DEVICE;
  }

  /** Whether the allocation range is known. */
  public boolean rangeKnown() {
    return allocationSize >= 0;
  }

  /** {@code cudaMemoryTypeHost}. */
  public String typeName() {
    return switch (type) {
      case CudaEnums.MEMORY_TYPE_UNREGISTERED -> "cudaMemoryTypeUnregistered";
      case CudaEnums.MEMORY_TYPE_HOST -> "cudaMemoryTypeHost";
      case CudaEnums.MEMORY_TYPE_DEVICE -> "cudaMemoryTypeDevice";
      case CudaEnums.MEMORY_TYPE_MANAGED -> "cudaMemoryTypeManaged";
      default -> "cudaMemoryType " + type;
    };
  }

  /** The attributes as a person reads them. */
  public String describe() {
    return "type " + typeName() + " (" + type + "), device " + device + ", devicePointer "
        + Hex.address(devicePointer) + ", hostPointer " + Hex.address(hostPointer)
        + (rangeKnown() ? ", allocation " + Hex.range(allocationBase, allocationSize)
            : ", allocation range unknown");
  }

  /** Asks CUDA about {@code address}. */
  static CudaResult<PointerInfo> query(long address) {
    try (var arena = Arena.ofConfined()) {
      MemorySegment attributes = arena.allocate(CudaLayouts.POINTER_ATTRIBUTES);
      int status = (int) Cudart.POINTER_GET_ATTRIBUTES.invokeExact(attributes, address);
      if (status != 0) {
        return CudaResult.failure(CudaError.of(
            "cudaPointerGetAttributes(" + Hex.address(address) + ")", status));
      }
      int type = (int) TYPE.get(attributes);
      int device = (int) DEVICE.get(attributes);
      long[] range = type == CudaEnums.MEMORY_TYPE_DEVICE ? range(arena, device, address) : null;
      return CudaResult.of(new PointerInfo(address, type, device,
          (long) DEVICE_POINTER.get(attributes), (long) HOST_POINTER.get(attributes),
          range == null ? 0 : range[0], range == null ? -1 : range[1]));
    } catch (Throwable t) {
      throw Calls.rethrow(t);
    }
  }

  /**
   * The allocation's base and size from the driver API, or null when libcuda is absent or the call
   * fails (the caller then checks the last byte instead). The device is made current first: the
   * driver API needs its primary context on this thread.
   */
  private static long[] range(Arena arena, int device, long address) throws Throwable {
    if (LibcudaLibrary.loadError().isPresent() || CudaDevice.select(device).isPresent()) {
      return null;
    }
    MemorySegment base = arena.allocate(JAVA_LONG);
    MemorySegment size = arena.allocate(JAVA_LONG);
    int status;
    try {
      status = (int) Libcuda.MEM_GET_ADDRESS_RANGE.invokeExact(base, size, address);
    } catch (LinkageError e) {
      return null; // a libcuda.so.1 without the symbol: as if it were absent
    }
    return status == Libcuda.CUDA_SUCCESS
        ? new long[] {base.get(JAVA_LONG, 0), size.get(JAVA_LONG, 0)}
        : null;
  }
}
