package io.kvfleet.engine.host;

import io.kvfleet.engine.Capability;
import io.kvfleet.engine.Diagnosis;
import io.kvfleet.engine.EngineException;
import io.kvfleet.engine.MemoryType;
import io.kvfleet.engine.RegionRequest;
import io.kvfleet.engine.RegistrationFailure;
import io.kvfleet.engine.internal.Libc;
import io.kvfleet.engine.spi.Backend;
import io.kvfleet.engine.spi.BackendAllocation;
import io.kvfleet.engine.spi.BackendPeer;
import io.kvfleet.engine.spi.RegisterResult;
import java.util.List;
import java.util.Optional;

/** The libc-only backend of one engine. Stateless apart from its identity; thread-safe. */
final class HostBackend implements Backend {
  static final String NAME = "host";

  private final HostIdentity self = HostIdentity.self();
  private final Capability capability = new Capability(NAME, true, "", List.of(MemoryType.DRAM),
      List.of("process_vm"), false,
      "moves bytes within one host (process_vm_writev/readv); cross-host transfers need ucx");

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public Capability capability() {
    return capability;
  }

  @Override
  public Optional<BackendAllocation> allocate(String name, long length) {
    Libc.Result mapped = Libc.mmap(0, length, Libc.PROT_READ | Libc.PROT_WRITE,
        Libc.MAP_SHARED | Libc.MAP_ANONYMOUS, -1, 0);
    if (mapped.value() == Libc.MAP_FAILED) {
      RegistrationFailure reason = mapped.errno() == Libc.ENOMEM
          ? RegistrationFailure.OUT_OF_MEMORY
          : RegistrationFailure.BACKEND_ERROR;
      throw EngineException.allocationFailed(name, length, Diagnosis.ofNative(reason,
          "mmap(MAP_SHARED | MAP_ANONYMOUS) of " + length + " bytes failed", mapped.errno(),
          Libc.strerror(mapped.errno())));
    }
    return Optional.of(new HostAllocation(mapped.value(), length));
  }

  @Override
  public RegisterResult register(RegionRequest request, long address) {
    if (request.memoryType() != MemoryType.DRAM) {
      return new RegisterResult.Refused(Diagnosis.of(RegistrationFailure.MEMORY_TYPE_UNSUPPORTED,
          request.regionId() + ": the host backend registers DRAM only, not "
              + request.memoryType()));
    }
    byte[] key = new HostKey(self.pid(), address, request.length()).encode();
    return new RegisterResult.Accepted(new HostRegion(address, request.length(), key));
  }

  @Override
  public byte[] workerAddress() {
    return self.encode();
  }

  @Override
  public BackendPeer connect(byte[] remoteAddress) {
    HostIdentity remote = HostIdentity.decode(remoteAddress);
    if (!remote.bootId().equals(self.bootId())) {
      throw EngineException.connectFailed(NAME, "the peer (pid " + remote.pid() + ", boot id "
          + remote.bootId() + ") is on another host (this boot id " + self.bootId()
          + "); the host backend moves bytes within one host, use ucx", 0, "");
    }
    return new HostPeer(remote.pid());
  }

  @Override
  public void close() {}
}
