package io.kvfleet.engine.cuda;

import io.kvfleet.engine.Capability;
import io.kvfleet.engine.Engine;
import io.kvfleet.engine.EngineConfig;
import io.kvfleet.engine.HostMemory;
import io.kvfleet.engine.RegionRequest;
import io.kvfleet.engine.RegistrationOutcome;

/**
 * Opens an engine in a JVM started with {@code -Dkvfleet.cuda.library} naming a library that does
 * not exist, and prints what it found, one fact a line, for {@link CudaLibraryAbsentTest}.
 */
public final class AbsentLibraryMain {
  private AbsentLibraryMain() {}

  public static void main(String[] args) {
    try (Engine engine = Engine.open(EngineConfig.defaults().withBackends("cuda", "host"))) {
      for (Capability capability : engine.capabilities()) {
        System.out.println("capability " + capability.summary());
      }
      System.out.println("backends " + engine.backends());
      HostMemory memory = engine.allocate("state", 1 << 16);
      for (RegistrationOutcome outcome
          : engine.register(RegionRequest.vram("state-L0", 0, memory.address(), 1 << 16)).outcomes()) {
        String reason = switch (outcome) {
          case RegistrationOutcome.Failed failed -> "failed " + failed.reason() + " " + failed.detail();
          case RegistrationOutcome.Skipped skipped -> "skipped " + skipped.reason() + " "
              + skipped.diagnosis().detail();
          case RegistrationOutcome.Registered registered -> "registered";
        };
        System.out.println("outcome " + outcome.backend() + " " + reason);
      }
      System.out.println("libraryError " + Cuda.libraryError().orElse("none"));
    }
  }
}
