package io.kvfleet.engine.host;

import static org.assertj.core.api.Assertions.assertThat;

import io.kvfleet.engine.Engine;
import io.kvfleet.engine.EngineConfig;
import io.kvfleet.engine.HostMemory;
import io.kvfleet.engine.RegionRequest;
import io.kvfleet.engine.Registration;
import io.kvfleet.engine.RegistrationOutcome;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Red team (att). docs/SECURITY.md, Memory: the agent registers "a shm: object it mapped itself" and a host grant
 * reaches only "memory that it and the peer agent allocated or were handed for that purpose"; "deregistration
 * unlinks the grant". But a {@code shm:/NAME} handle (POST /v1/components, "handles": ["shm:/NAME"]) is opened with
 * shm_open(NAME) and nothing else (Registrar.mapShared, SharedMapping.open): any /dev/shm object the agent's uid
 * can open is taken, including ANOTHER agent's {@code kvfleet-grant-*} (its names are on Kafka in every
 * region.registered) or {@code kvfleet-alloc-*} (ls /dev/shm). An API caller (a worker of another user that was
 * given the token, as SECURITY.md "Agent API" describes) so maps another agent's KV memory into this agent as its
 * own region, reads or overwrites it through ordinary transfers, and keeps it reachable after its owner
 * deregistered it (the new grant is another hard link to the same object).
 */
class ForeignShmRegistrationAttackTest {
  private static final long LENGTH = 64 * 1024;
  private Engine victim;
  private Engine attacker;

  @BeforeEach
  void twoAgents() {
    victim = Engine.open(EngineConfig.defaults().withBackends("host").withName("victim"));
    // UCX as well, as an agent has it by default where UCX is installed: it maps a shm: handle itself.
    attacker = Engine.open(EngineConfig.defaults().withBackends("host", "ucx").withName("attacker"));
  }

  @AfterEach
  void close() {
    attacker.close();
    victim.close();
  }

  /**
   * glibc's {@code shm_open} drops every leading slash, so {@code //kvfleet-grant-...} opens the grant
   * too: the check once dropped one slash only, and UCX registered the victim's memory (docs/SECURITY.md,
   * "What the agent API guarantees").
   */
  @ParameterizedTest
  @ValueSource(strings = {"/", "//", "///", ""})
  void anotherAgentsGrantNamedAsAShmHandleIsNotRegistered(String slashes) {
    HostMemory secret = victim.allocate("tenant-a-kv", LENGTH);
    secret.segment().fill((byte) 0x5A);
    Registration victims = victim.register(RegionRequest.of(secret)).registration("host").orElseThrow();
    String published = HostKey.decode(victims.remoteKey().packed()).grant(); // in the victim's region.registered

    var outcomes = attacker.register(RegionRequest.sharedMemory("stolen", slashes + published, 0, LENGTH)).outcomes();
    for (RegistrationOutcome outcome : outcomes) {
      if (outcome instanceof RegistrationOutcome.Registered r) {
        Registration stolen = r.registration();
        MemorySegment seen = MemorySegment.ofAddress(stolen.address()).reinterpret(LENGTH);
        byte first = seen.get(ValueLayout.JAVA_BYTE, 0);
        seen.set(ValueLayout.JAVA_BYTE, 0, (byte) 0x00); // and writes into the victim's memory
        assertThat(outcome).as("the victim's KV memory (first byte 0x%02x, now overwritten: victim sees 0x%02x),"
            + " registered by another agent's %s backend through the handle shm:%s", first,
            secret.segment().get(ValueLayout.JAVA_BYTE, 0), r.backend(), slashes + published)
            .isNotInstanceOf(RegistrationOutcome.Registered.class);
      }
    }
    assertThat(outcomes).anySatisfy(outcome -> assertThat(outcome).isInstanceOfSatisfying(
        RegistrationOutcome.Failed.class, failed -> assertThat(failed.diagnosis().reason())
            .isEqualTo(io.kvfleet.engine.RegistrationFailure.NOT_AGENT_MEMORY)));
    victim.deregister(victims); // the owner takes it back: its grant is unlinked
    assertThat(secret.segment().get(ValueLayout.JAVA_BYTE, 0)).as("the victim's memory").isEqualTo((byte) 0x5A);
  }

  /**
   * A name {@code shm_open} would refuse or read another way, or that the host backend would read
   * another way than UCX, is refused with the reason before it is opened.
   */
  @ParameterizedTest
  @ValueSource(strings = {"/", "///", "/a/b", "/kv\0x", "//kv-L0", "kv-L0"})
  void aNameThatIsNotOneObjectsIsRefused(String name) {
    var outcomes = attacker.register(RegionRequest.sharedMemory("odd", name, 0, LENGTH)).outcomes();
    assertThat(outcomes).noneMatch(RegistrationOutcome.Registered.class::isInstance);
    assertThat(outcomes).anySatisfy(outcome -> assertThat(outcome).isInstanceOfSatisfying(
        RegistrationOutcome.Failed.class, failed -> {
          assertThat(failed.diagnosis().reason()).isEqualTo(io.kvfleet.engine.RegistrationFailure.INVALID_ADDRESS);
          assertThat(failed.diagnosis().detail()).contains("is not a shared-memory object's name");
        }));
  }
}
