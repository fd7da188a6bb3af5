package io.kvfleet.control.testing;

import io.kvfleet.control.dataplane.Staging;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Optional;

/**
 * Staging for machines without a GPU: the "device" is host memory and the device copies are host
 * copies, so everything else on the staged path (ucx, the agents, the events) runs for real. Its
 * name, {@code hostcopy}, is what the completions' paths start with, so no test can mistake it for
 * CUDA. The GPU check runs the path with CUDA.
 */
public final class HostStaging implements Staging {
  @Override
  public String name() {
    return "hostcopy";
  }

  @Override
  public Optional<String> unavailable() {
    return Optional.empty();
  }

  @Override
  public Buffer allocate(long length) {
    Arena arena = Arena.ofShared();
    MemorySegment memory = arena.allocate(length, 4096);
    return new Buffer(memory.address(), length, arena::close);
  }

  @Override
  public Optional<CopyError> copy(long destination, long source, long length) {
    MemorySegment.copy(MemorySegment.ofAddress(source).reinterpret(length), 0,
        MemorySegment.ofAddress(destination).reinterpret(length), 0, length);
    return Optional.empty();
  }
}
