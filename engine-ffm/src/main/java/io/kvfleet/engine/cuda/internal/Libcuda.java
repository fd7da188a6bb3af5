package io.kvfleet.engine.cuda.internal;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.FunctionDescriptor;
import java.lang.invoke.MethodHandle;

/**
 * The one driver-API function the runtime API has no equivalent for; it returns a {@code
 * CUresult} ({@code int}). Touch this class only after {@link LibcudaLibrary#loadError()} is empty.
 */
public final class Libcuda {
  private Libcuda() {}

  public static final int CUDA_SUCCESS = 0;

  private static final NativeLibrary LIB = LibcudaLibrary.LIBRARY;

  /** {@code cuMemGetAddressRange_v2(CUdeviceptr* base, size_t* size, CUdeviceptr ptr)}. */
  public static final MethodHandle MEM_GET_ADDRESS_RANGE = LIB.bind("cuMemGetAddressRange_v2",
      FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, JAVA_LONG));
}
