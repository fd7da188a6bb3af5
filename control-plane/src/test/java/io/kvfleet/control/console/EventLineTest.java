package io.kvfleet.control.console;

import static org.assertj.core.api.Assertions.assertThat;

import io.kvfleet.events.EventType;
import io.kvfleet.events.OpaqueEvent;
import io.kvfleet.events.Samples;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class EventLineTest {

  @Test
  void everyEventTypePrintsItsSubjectAndShortType() {
    Arrays.stream(EventType.values()).forEach(type -> {
      var envelope = Samples.envelope(Samples.of(type));
      String line = EventLine.format(envelope);
      assertThat(line).contains(type.wireName().substring("io.kvfleet.".length()));
      assertThat(line).contains(envelope.subject());
    });
  }

  @Test
  void registrationFailurePrintsReasonNativeDetailTransportsAndFix() {
    String line = EventLine.format(Samples.envelope(Samples.stateTensorFailure("prefill-0", 3)));
    assertThat(line).contains("MEMORY_TYPE_UNSUPPORTED", "UCS_ERR_UNSUPPORTED", "transports: tcp, sysv", "fix: rebuild UCX");
  }

  @Test
  void opaqueEventSaysThisVersionCannotReadIt() {
    var opaque = new OpaqueEvent("n", "s", "io.kvfleet.future.thing", 9, "{}");
    assertThat(EventLine.detail(opaque)).contains("io.kvfleet.future.thing v9");
  }
}
