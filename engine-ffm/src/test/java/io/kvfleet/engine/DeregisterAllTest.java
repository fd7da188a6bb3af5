package io.kvfleet.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kvfleet.engine.internal.Libc;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A region's release on every backend, or on none: a release that ended one backend and then met a busy
 * one left the first release unreported (the fleet could still send bytes to a region the worker took back).
 */
class DeregisterAllTest {
  private final String name = "/kvfleet-deregister-all-" + ProcessHandle.current().pid();
  private Engine engine;

  @BeforeEach
  void open() {
    Libc.Result fd = Libc.shmOpen(name, Libc.O_RDWR | Libc.O_CREAT | Libc.O_EXCL, 0600);
    assertThat(fd.failed()).as(fd.describe()).isFalse();
    assertThat(Libc.ftruncate((int) fd.value(), 1 << 16).failed()).isFalse();
    Libc.close((int) fd.value());
    engine = Engine.open(EngineConfig.defaults().withBackends("ucx", "host"));
  }

  @AfterEach
  void close() {
    engine.close();
    Libc.shmUnlink(name);
  }

  @Test
  void aBusyBackendKeepsEveryBackendOfTheRegion() {
    List<Registration> both = engine.register(RegionRequest.sharedMemory("kv", name, 0, 1 << 16)).registrations();
    assertThat(both).hasSize(2);
    Registration last = both.getLast();
    last.hold(); // a batch in flight on the backend released last

    assertThatThrownBy(() -> engine.deregisterAll(both)).isInstanceOf(EngineException.class)
        .satisfies(e -> assertThat(((EngineException) e).busy()).isTrue()).hasMessageContaining("in flight");
    assertThat(both).allSatisfy(r -> assertThat(r.isLive()).as(r.describe()).isTrue());
    assertThat(engine.registrations()).containsAll(both);

    last.release();
    engine.deregisterAll(both);
    assertThat(both).noneSatisfy(r -> assertThat(r.isLive()).isTrue());
    assertThat(engine.registrations()).doesNotContainAnyElementsOf(both);
  }
}
