package io.kvfleet.engine.cuda.internal;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.FunctionDescriptor;
import java.lang.invoke.MethodHandle;

/**
 * libcudart's functions, bound once. Touch this class only after {@link
 * CudartLibrary#loadError()} is empty. Every function returns a {@code cudaError_t} ({@code int})
 * unless noted; device and host pointers, streams and events are {@code long}; out-parameters are
 * segments. The same names exist in the CUDA 12 and 13 runtimes.
 */
public final class Cudart {
  private Cudart() {}

  private static final NativeLibrary LIB = CudartLibrary.LIBRARY;

  /** {@code const char* cudaGetErrorName(cudaError_t)}. */
  public static final MethodHandle GET_ERROR_NAME = LIB.bind("cudaGetErrorName",
      FunctionDescriptor.of(ADDRESS, JAVA_INT));
  /** {@code const char* cudaGetErrorString(cudaError_t)}. */
  public static final MethodHandle GET_ERROR_STRING = LIB.bind("cudaGetErrorString",
      FunctionDescriptor.of(ADDRESS, JAVA_INT));
  /** {@code cudaGetLastError()}: returns and clears this thread's last error. */
  public static final MethodHandle GET_LAST_ERROR = LIB.bind("cudaGetLastError",
      FunctionDescriptor.of(JAVA_INT));

  public static final MethodHandle RUNTIME_GET_VERSION = LIB.bind("cudaRuntimeGetVersion",
      FunctionDescriptor.of(JAVA_INT, ADDRESS));
  public static final MethodHandle DRIVER_GET_VERSION = LIB.bind("cudaDriverGetVersion",
      FunctionDescriptor.of(JAVA_INT, ADDRESS));
  public static final MethodHandle GET_DEVICE_COUNT = LIB.bind("cudaGetDeviceCount",
      FunctionDescriptor.of(JAVA_INT, ADDRESS));
  /** {@code cudaDeviceGetAttribute(int* value, cudaDeviceAttr attr, int device)}. */
  public static final MethodHandle DEVICE_GET_ATTRIBUTE = LIB.bind("cudaDeviceGetAttribute",
      FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT));
  /**
   * {@code cudaGetDeviceProperties(cudaDeviceProp*, int)}: CUDA 12 exports the current layout as
   * {@code _v2}; only the prefix in {@link CudaLayouts#DEVICE_PROP_PREFIX} is read.
   */
  public static final MethodHandle GET_DEVICE_PROPERTIES = LIB.bind(
      LIB.has("cudaGetDeviceProperties_v2") ? "cudaGetDeviceProperties_v2" : "cudaGetDeviceProperties",
      FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT));
  /** {@code cudaDeviceGetPCIBusId(char* id, int len, int device)}. */
  public static final MethodHandle DEVICE_GET_PCI_BUS_ID = LIB.bind("cudaDeviceGetPCIBusId",
      FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT));
  /** {@code cudaDeviceGetByPCIBusId(int* device, const char* id)}. */
  public static final MethodHandle DEVICE_GET_BY_PCI_BUS_ID = LIB.bind("cudaDeviceGetByPCIBusId",
      FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS));
  /** {@code cudaMemGetInfo(size_t* free, size_t* total)} of the current device. */
  public static final MethodHandle MEM_GET_INFO = LIB.bind("cudaMemGetInfo",
      FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS));
  public static final MethodHandle SET_DEVICE = LIB.bind("cudaSetDevice",
      FunctionDescriptor.of(JAVA_INT, JAVA_INT));

  /** {@code cudaPointerGetAttributes(cudaPointerAttributes*, const void*)}. */
  public static final MethodHandle POINTER_GET_ATTRIBUTES = LIB.bind("cudaPointerGetAttributes",
      FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG));

  public static final MethodHandle MALLOC = LIB.bind("cudaMalloc",
      FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG));
  public static final MethodHandle FREE = LIB.bind("cudaFree",
      FunctionDescriptor.of(JAVA_INT, JAVA_LONG));
  public static final MethodHandle MALLOC_HOST = LIB.bind("cudaMallocHost",
      FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG));
  public static final MethodHandle FREE_HOST = LIB.bind("cudaFreeHost",
      FunctionDescriptor.of(JAVA_INT, JAVA_LONG));
  /** {@code cudaHostRegister(void* ptr, size_t size, unsigned flags)}. */
  public static final MethodHandle HOST_REGISTER = LIB.bind("cudaHostRegister",
      FunctionDescriptor.of(JAVA_INT, JAVA_LONG, JAVA_LONG, JAVA_INT));
  public static final MethodHandle HOST_UNREGISTER = LIB.bind("cudaHostUnregister",
      FunctionDescriptor.of(JAVA_INT, JAVA_LONG));

  /** {@code cudaMemcpy(void* dst, const void* src, size_t count, cudaMemcpyKind kind)}. */
  public static final MethodHandle MEMCPY = LIB.bind("cudaMemcpy",
      FunctionDescriptor.of(JAVA_INT, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_INT));
  /** {@code cudaMemcpyAsync(dst, src, count, kind, cudaStream_t stream)}. */
  public static final MethodHandle MEMCPY_ASYNC = LIB.bind("cudaMemcpyAsync",
      FunctionDescriptor.of(JAVA_INT, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_INT, JAVA_LONG));
  /** {@code cudaMemset(void* ptr, int value, size_t count)}. */
  public static final MethodHandle MEMSET = LIB.bind("cudaMemset",
      FunctionDescriptor.of(JAVA_INT, JAVA_LONG, JAVA_INT, JAVA_LONG));

  /** {@code cudaIpcGetMemHandle(cudaIpcMemHandle_t* handle, void* devPtr)}. */
  public static final MethodHandle IPC_GET_MEM_HANDLE = LIB.bind("cudaIpcGetMemHandle",
      FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG));
  /** {@code cudaIpcOpenMemHandle(void** ptr, cudaIpcMemHandle_t handle, unsigned flags)}, by value. */
  public static final MethodHandle IPC_OPEN_MEM_HANDLE = LIB.bind("cudaIpcOpenMemHandle",
      FunctionDescriptor.of(JAVA_INT, ADDRESS, CudaLayouts.IPC_MEM_HANDLE, JAVA_INT));
  public static final MethodHandle IPC_CLOSE_MEM_HANDLE = LIB.bind("cudaIpcCloseMemHandle",
      FunctionDescriptor.of(JAVA_INT, JAVA_LONG));

  /** {@code cudaStreamCreateWithFlags(cudaStream_t*, unsigned flags)}. */
  public static final MethodHandle STREAM_CREATE_WITH_FLAGS = LIB.bind("cudaStreamCreateWithFlags",
      FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT));
  public static final MethodHandle STREAM_SYNCHRONIZE = LIB.bind("cudaStreamSynchronize",
      FunctionDescriptor.of(JAVA_INT, JAVA_LONG));
  public static final MethodHandle STREAM_DESTROY = LIB.bind("cudaStreamDestroy",
      FunctionDescriptor.of(JAVA_INT, JAVA_LONG));
  /** {@code cudaEventCreateWithFlags(cudaEvent_t*, unsigned flags)}. */
  public static final MethodHandle EVENT_CREATE_WITH_FLAGS = LIB.bind("cudaEventCreateWithFlags",
      FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT));
  /** {@code cudaEventRecord(cudaEvent_t, cudaStream_t)}. */
  public static final MethodHandle EVENT_RECORD = LIB.bind("cudaEventRecord",
      FunctionDescriptor.of(JAVA_INT, JAVA_LONG, JAVA_LONG));
  /** {@code cudaEventQuery}: success when done, {@code cudaErrorNotReady} while pending. */
  public static final MethodHandle EVENT_QUERY = LIB.bind("cudaEventQuery",
      FunctionDescriptor.of(JAVA_INT, JAVA_LONG));
  public static final MethodHandle EVENT_SYNCHRONIZE = LIB.bind("cudaEventSynchronize",
      FunctionDescriptor.of(JAVA_INT, JAVA_LONG));
  public static final MethodHandle EVENT_DESTROY = LIB.bind("cudaEventDestroy",
      FunctionDescriptor.of(JAVA_INT, JAVA_LONG));
}
