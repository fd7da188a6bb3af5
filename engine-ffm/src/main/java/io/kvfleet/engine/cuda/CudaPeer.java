package io.kvfleet.engine.cuda;

import io.kvfleet.engine.Direction;
import io.kvfleet.engine.EngineException;
import io.kvfleet.engine.RemoteKey;
import io.kvfleet.engine.spi.BackendPeer;
import io.kvfleet.engine.spi.BackendRemote;
import io.kvfleet.engine.spi.BackendTransfer;
import io.kvfleet.engine.spi.TransferOps;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A cuda worker on this host. Copies run on the GPU (peer to peer between GPUs), queued on one
 * stream per local device; the path is {@code cuda/d2d} within this process and {@code
 * cuda/d2d+ipc} when the peer's memory is opened from IPC handles.
 */
final class CudaPeer implements BackendPeer {
  static final String SAME_PROCESS = "cuda/d2d";
  static final String OTHER_PROCESS = "cuda/d2d+ipc";

  private final CudaIdentity self;
  private final CudaIdentity remote;
  private final Map<Integer, CudaStream> streams = new ConcurrentHashMap<>();

  private CudaPeer(CudaIdentity self, CudaIdentity remote) {
    this.self = self;
    this.remote = remote;
  }

  static CudaPeer connect(CudaIdentity self, CudaIdentity remote, CudaProbe probe) {
    if (!probe.usable()) {
      throw EngineException.connectFailed(CudaBackend.NAME, probe.summary(),
          probe.error().map(CudaError::code).orElse(0), probe.error().map(CudaError::nativeMessage)
              .orElse(""));
    }
    if (!self.sameHost(remote)) {
      throw EngineException.connectFailed(CudaBackend.NAME, "the peer (pid " + remote.pid()
          + ", boot id " + remote.bootId() + ") is on another host (this boot id " + self.bootId()
          + "); CUDA IPC reaches this host only: send VRAM through ucx, or by the staged path"
          + " (StagedWrite) when ucx cannot register VRAM", 0, "");
    }
    return new CudaPeer(self, remote);
  }

  @Override
  public String path() {
    return self.sameProcess(remote) ? SAME_PROCESS : OTHER_PROCESS;
  }

  @Override
  public BackendRemote attach(RemoteKey key) {
    CudaKey decoded = CudaKey.decode(key.packed());
    long ownerBase = key.address() - decoded.offset();
    if (!decoded.owner().equals(remote)) {
      throw EngineException.foreign(key.toString(), "made by pid " + decoded.owner().pid()
          + " (boot id " + decoded.owner().bootId() + "), this peer is pid " + remote.pid());
    }
    if (self.sameProcess(decoded.owner())) {
      return new CudaRemote(ownerBase, ownerBase, null);
    }
    if (!decoded.exportable()) {
      throw EngineException.attachFailed(key + ": its owner could not export it through CUDA IPC",
          0, decoded.notExportable());
    }
    int device = decoded.pciBusId().isEmpty() ? 0 : localOrdinal(decoded.pciBusId());
    CudaResult<ImportedMemory> opened = ImportedMemory.tryOpen(decoded.ipcHandle(), device);
    if (!opened.succeeded()) {
      throw EngineException.attachFailed(key + " on GPU " + device, opened.error().code(),
          opened.error().nativeMessage());
    }
    return new CudaRemote(ownerBase, opened.value().address(), opened.value());
  }

  /** This process's ordinal for the GPU at {@code pciBusId}; 0 when it does not see that GPU. */
  private static int localOrdinal(String pciBusId) {
    CudaResult<Integer> found = CudaDevice.byPciBusId(pciBusId);
    return found.succeeded() ? found.value() : 0;
  }

  @Override
  public BackendTransfer post(Direction direction, TransferOps ops) {
    int device = ((CudaRegion) ops.local(0)).device();
    CudaStream stream = streams.computeIfAbsent(device, CudaStream::create);
    return CudaTransfer.start(path(), stream, direction, ops);
  }

  /** Waits for queued copies and destroys the streams. */
  @Override
  public void close() {
    RuntimeException first = null;
    for (CudaStream stream : List.copyOf(streams.values())) {
      try {
        stream.close();
      } catch (RuntimeException e) {
        if (first == null) {
          first = e;
        } else {
          first.addSuppressed(e);
        }
      }
    }
    streams.clear();
    if (first != null) {
      throw first;
    }
  }
}
