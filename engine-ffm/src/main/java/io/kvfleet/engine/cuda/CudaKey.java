package io.kvfleet.engine.cuda;

import static java.util.Objects.requireNonNull;

import io.kvfleet.engine.EngineException;
import io.kvfleet.engine.cuda.internal.CudaLayouts;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * The cuda backend's packed key: who owns the region, which GPU holds it (by PCI bus id, since
 * ordinals differ between processes), where the region starts inside its allocation, and the
 * allocation's CUDA IPC handle, or why there is none (memory from a pool or the virtual memory
 * API cannot be exported; same-process peers still reach it).
 */
record CudaKey(CudaIdentity owner, String pciBusId, long offset, byte[] ipcHandle,
    String notExportable) {
  private static final byte VERSION = 1;

  CudaKey {
    requireNonNull(owner, "owner must not be null");
    requireNonNull(pciBusId, "pciBusId must not be null");
    requireNonNull(ipcHandle, "ipcHandle must not be null");
    requireNonNull(notExportable, "notExportable must not be null");
  }

  boolean exportable() {
    return ipcHandle.length == CudaLayouts.IPC_HANDLE_SIZE;
  }

  byte[] encode() {
    byte[] owner = this.owner.encode();
    ByteBuffer out = ByteBuffer.allocate(1 + 4 + owner.length + CudaIdentity.Strings.size(pciBusId)
        + 8 + 1 + (exportable() ? ipcHandle.length : CudaIdentity.Strings.size(notExportable)));
    out.put(VERSION).putInt(owner.length).put(owner);
    CudaIdentity.Strings.put(out, pciBusId);
    out.putLong(offset).put((byte) (exportable() ? 1 : 0));
    if (exportable()) {
      out.put(ipcHandle);
    } else {
      CudaIdentity.Strings.put(out, notExportable);
    }
    return out.array();
  }

  static CudaKey decode(byte[] bytes) {
    try {
      ByteBuffer in = ByteBuffer.wrap(bytes);
      byte version = in.get();
      if (version != VERSION) {
        throw EngineException.malformed("cuda key", "unsupported version " + version);
      }
      byte[] owner = new byte[in.getInt()];
      in.get(owner);
      String pciBusId = CudaIdentity.Strings.get(in);
      long offset = in.getLong();
      boolean exportable = in.get() == 1;
      byte[] handle = new byte[exportable ? CudaLayouts.IPC_HANDLE_SIZE : 0];
      in.get(handle);
      String reason = exportable ? "" : CudaIdentity.Strings.get(in);
      if (in.hasRemaining() || offset < 0) {
        throw EngineException.malformed("cuda key", bytes.length + " bytes, offset " + offset);
      }
      return new CudaKey(CudaIdentity.decode(owner), pciBusId, offset, handle, reason);
    } catch (BufferUnderflowException | NegativeArraySizeException e) {
      throw EngineException.malformed("cuda key", bytes.length + " bytes, truncated");
    }
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof CudaKey that && owner.equals(that.owner)
        && pciBusId.equals(that.pciBusId) && offset == that.offset
        && Arrays.equals(ipcHandle, that.ipcHandle) && notExportable.equals(that.notExportable);
  }

  @Override
  public int hashCode() {
    return 31 * owner.hashCode() + Arrays.hashCode(ipcHandle) + Long.hashCode(offset);
  }
}
