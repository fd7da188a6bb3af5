package io.kvfleet.engine.ucx;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import io.kvfleet.engine.internal.Calls;
import io.kvfleet.engine.internal.Hex;
import io.kvfleet.engine.ucx.internal.Ucp;
import io.kvfleet.engine.ucx.internal.UcpLayouts;
import io.kvfleet.engine.ucx.internal.UcsStatus;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * A {@code ucp_mem_h} and its packed rkey: memory registered or allocated with {@code ucp_mem_map}.
 * Its arena holds the request parameters that name the handle to every put and get from it (so
 * UCX's zero-copy protocols skip looking the buffer up). One owner; {@link #close()} unmaps it
 * (and frees it when UCX allocated it).
 */
@SuppressWarnings("restricted") // FFM by design: native addresses from libc and UCX
final class UcxMemory implements AutoCloseable {
  private final UcpContext context;
  private final long memh;
  private final long address;
  private final long length;
  private final int memoryType;
  private final byte[] packedKey;
  private final Arena arena = Arena.ofShared();
  private final long requestParam;
  private boolean closed;

  private UcxMemory(UcpContext context, long memh, long address, long length, int memoryType,
      byte[] packedKey) {
    this.context = context;
    this.memh = memh;
    this.address = address;
    this.length = length;
    this.memoryType = memoryType;
    this.packedKey = packedKey;
    MemorySegment param = arena.allocate(UcpLayouts.REQUEST_PARAM);
    UcpLayouts.REQUEST_PARAM_OP_ATTR_MASK.set(param, Ucp.OP_ATTR_FIELD_MEMH);
    UcpLayouts.REQUEST_PARAM_MEMH.set(param, MemorySegment.ofAddress(memh));
    this.requestParam = param.address();
  }

  /** What {@code ucp_mem_map} answered: a mapping, or its status. */
  sealed interface Mapped {}

  record Ok(UcxMemory memory) implements Mapped {}

  record Refused(int status, String call) implements Mapped {}

  /** Registers {@code [address, address + length)} as {@code memoryType}. */
  static Mapped register(UcpContext context, long address, long length, int memoryType) {
    return map(context, address, length, 0, memoryType);
  }

  /** Lets UCX allocate {@code length} bytes of host memory it can reach fastest. */
  static Mapped allocate(UcpContext context, long length) {
    return map(context, 0, length, Ucp.MEM_MAP_ALLOCATE, Ucp.MEMORY_TYPE_HOST);
  }

  /** The raw call, also used by the test that shows why VRAM needs a check of its own. */
  static Mapped map(UcpContext context, long address, long length, int flags, int memoryType) {
    try (var arena = Arena.ofConfined()) {
      MemorySegment params = arena.allocate(UcpLayouts.MEM_MAP_PARAMS);
      UcpLayouts.MEM_MAP_PARAMS_FIELD_MASK.set(params,
          Ucp.MEM_MAP_PARAM_FIELD_ADDRESS | Ucp.MEM_MAP_PARAM_FIELD_LENGTH
              | Ucp.MEM_MAP_PARAM_FIELD_FLAGS | Ucp.MEM_MAP_PARAM_FIELD_MEMORY_TYPE);
      UcpLayouts.MEM_MAP_PARAMS_ADDRESS.set(params, MemorySegment.ofAddress(address));
      UcpLayouts.MEM_MAP_PARAMS_LENGTH.set(params, length);
      UcpLayouts.MEM_MAP_PARAMS_FLAGS.set(params, flags);
      UcpLayouts.MEM_MAP_PARAMS_MEMORY_TYPE.set(params, memoryType);
      MemorySegment out = arena.allocate(JAVA_LONG);
      int status = (int) Ucp.MEM_MAP.invokeExact(context.handle(), params, out);
      if (status != UcsStatus.OK) {
        return new Refused(status, "ucp_mem_map");
      }
      long memh = out.get(JAVA_LONG, 0);
      MemorySegment attr = arena.allocate(UcpLayouts.MEM_ATTR);
      UcpLayouts.MEM_ATTR_FIELD_MASK.set(attr,
          Ucp.MEM_ATTR_FIELD_ADDRESS | Ucp.MEM_ATTR_FIELD_LENGTH | Ucp.MEM_ATTR_FIELD_MEM_TYPE);
      status = (int) Ucp.MEM_QUERY.invokeExact(memh, attr);
      if (status != UcsStatus.OK) {
        unmap(context, memh);
        return new Refused(status, "ucp_mem_query");
      }
      long mapped = ((MemorySegment) UcpLayouts.MEM_ATTR_ADDRESS.get(attr)).address();
      long mappedLength = (long) UcpLayouts.MEM_ATTR_LENGTH.get(attr);
      int mappedType = (int) UcpLayouts.MEM_ATTR_MEM_TYPE.get(attr);
      MemorySegment keyOut = arena.allocate(JAVA_LONG);
      MemorySegment keyLengthOut = arena.allocate(JAVA_LONG);
      status = (int) Ucp.RKEY_PACK.invokeExact(context.handle(), memh, keyOut, keyLengthOut);
      if (status != UcsStatus.OK) {
        unmap(context, memh);
        return new Refused(status, "ucp_rkey_pack");
      }
      long key = keyOut.get(JAVA_LONG, 0);
      byte[] packed = MemorySegment.ofAddress(key).reinterpret(keyLengthOut.get(JAVA_LONG, 0))
          .toArray(JAVA_BYTE);
      Ucp.RKEY_BUFFER_RELEASE.invokeExact(key);
      return new Ok(new UcxMemory(context, memh, mapped, mappedLength, mappedType, packed));
    } catch (Throwable t) {
      throw Calls.rethrow(t);
    }
  }

  long memh() {
    return memh;
  }

  /** A {@code ucp_request_param_t} naming this memory handle, valid until {@link #close()}. */
  long requestParam() {
    return requestParam;
  }

  long address() {
    return address;
  }

  long length() {
    return length;
  }

  /** The memory type UCX says the mapping has ({@code ucp_mem_query}), not the one asked for. */
  int memoryType() {
    return memoryType;
  }

  byte[] packedKey() {
    return packedKey.clone();
  }

  boolean contains(long start, long bytes) {
    return start >= address && bytes <= length && start - address <= length - bytes;
  }

  @Override
  public synchronized void close() {
    if (!closed) {
      closed = true;
      try {
        unmap(context, memh);
      } finally {
        arena.close();
      }
    }
  }

  private static void unmap(UcpContext context, long memh) {
    try {
      int status = (int) Ucp.MEM_UNMAP.invokeExact(context.handle(), memh);
      UcpContext.check(status, "ucp_mem_unmap", "memh " + Hex.address(memh));
    } catch (Throwable t) {
      throw Calls.rethrow(t);
    }
  }

  @Override
  public String toString() {
    return "UcxMemory[" + Hex.range(address, length) + ", type " + memoryType + "]";
  }
}
