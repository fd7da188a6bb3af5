package io.kvfleet.engine.host;

import io.kvfleet.engine.Capability;
import io.kvfleet.engine.Diagnosis;
import io.kvfleet.engine.EngineException;
import io.kvfleet.engine.MemoryType;
import io.kvfleet.engine.RegionLocation;
import io.kvfleet.engine.RegionRequest;
import io.kvfleet.engine.RegistrationFailure;
import io.kvfleet.engine.spi.Backend;
import io.kvfleet.engine.spi.BackendAllocation;
import io.kvfleet.engine.spi.BackendPeer;
import io.kvfleet.engine.spi.RegisterResult;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/**
 * The libc-only backend of one engine. It registers only memory it can grant: a region in a
 * shared-memory allocation it made, or in a {@code shm:} object the worker handed over; each
 * registration is a grant (a hard link under an unguessable name), and its key names the grant,
 * never a process or an address. Thread-safe.
 */
final class HostBackend implements Backend {
  static final String NAME = "host";
  private static final Pattern SHM_NAME = Pattern.compile("/[^/]{1,250}");

  private final long token = Grants.newToken();
  private final HostIdentity self = HostIdentity.self(token);

  HostBackend() {
    Owners.sweep();
    Owners.claim(token);
  }
  private final Set<HostAllocation> allocations = ConcurrentHashMap.newKeySet();
  private final Capability capability = new Capability(NAME, true, "", List.of(MemoryType.DRAM),
      List.of("shm"), false,
      "moves bytes within one host, through shared-memory grants of registered regions only;"
          + " cross-host transfers need ucx");

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
    HostAllocation allocation = HostAllocation.create(name, length, token);
    allocations.add(allocation);
    return Optional.of(new BackendAllocation() {
      @Override
      public long address() {
        return allocation.address();
      }

      @Override
      public long length() {
        return allocation.length();
      }

      @Override
      public void close() {
        allocations.remove(allocation);
        allocation.close();
      }
    });
  }

  @Override
  public RegisterResult register(RegionRequest request, long address) {
    if (request.memoryType() != MemoryType.DRAM) {
      return new RegisterResult.Refused(Diagnosis.of(RegistrationFailure.MEMORY_TYPE_UNSUPPORTED,
          request.regionId() + ": the host backend registers DRAM only, not "
              + request.memoryType()));
    }
    Path file;
    long offset;
    if (request.location() instanceof RegionLocation.SharedMemory shm) {
      if (!SHM_NAME.matcher(shm.name()).matches()) {
        return notGrantable(request, "shared-memory name " + shm.name() + " is not /<name>");
      }
      file = Grants.DIRECTORY.resolve(shm.name().substring(1));
      offset = shm.offset();
    } else {
      Optional<HostAllocation> in = allocations.stream()
          .filter(a -> a.covers(address, request.length())).findFirst();
      if (in.isEmpty()) {
        return notGrantable(request, "the memory is not in a shared-memory allocation of the host"
            + " backend or a shm: object");
      }
      file = in.get().file();
      offset = address - in.get().address();
    }
    String grant;
    try {
      grant = Grants.grant(file, token);
    } catch (RuntimeException e) {
      return new RegisterResult.Refused(Diagnosis.of(RegistrationFailure.BACKEND_ERROR,
          request.regionId() + ": " + e.getMessage()));
    }
    byte[] key = new HostKey(grant, offset, request.length()).encode();
    return new RegisterResult.Accepted(new HostRegion(address, request.length(), grant, key));
  }

  private static RegisterResult notGrantable(RegionRequest request, String why) {
    return new RegisterResult.Refused(Diagnosis.of(RegistrationFailure.NOT_GRANTABLE,
        request.regionId() + ": the host backend moves only memory it can grant to peers; " + why));
  }

  @Override
  public byte[] workerAddress() {
    return self.encode();
  }

  @Override
  public BackendPeer connect(byte[] remoteAddress) {
    HostIdentity remote = HostIdentity.decode(remoteAddress);
    if (!remote.bootId().equals(self.bootId())) {
      throw EngineException.connectFailed(NAME, "the peer (boot id " + remote.bootId()
          + ") is on another host (this boot id " + self.bootId()
          + "); the host backend moves bytes within one host, use ucx", 0, "");
    }
    Owners.Owner owner = Owners.of(remote.token()).orElseThrow(() -> EngineException.connectFailed(
        NAME, "no live kvfleet worker on this host holds token "
            + java.util.HexFormat.of().toHexDigits(remote.token()) + " (no owner file in /dev/shm)", 0, ""));
    return new HostPeer(remote.token(), owner.pid());
  }

  @Override
  public void close() {
    Owners.release(token);
  }
}
