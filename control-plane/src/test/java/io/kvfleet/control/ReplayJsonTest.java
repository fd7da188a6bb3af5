package io.kvfleet.control;

import static org.assertj.core.api.Assertions.assertThat;

import io.kvfleet.control.console.Terminal;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ReplayJsonTest {

  /** A record's reason with DEL and C1 controls made {@code explain --json} output that no JSON reader took. */
  @Test
  void prettyJsonIsPrintableAsciiThatATerminalLeavesAsItIsAndThatReadsBack() throws Exception {
    String reason = "a\u0085b\u007fc\u001b[2Kd\u009be é 日本";
    String json = ReplayJson.pretty(Map.of("reason", reason));

    assertThat(json.chars()).allMatch(c -> c == '\n' || (c >= 0x20 && c < 0x7f));
    var printed = new ByteArrayOutputStream();
    try (var out = Terminal.escaping(printed)) {
      out.print(json);
    }
    assertThat(printed.toString(StandardCharsets.UTF_8)).isEqualTo(json);
    assertThat(ReplayJson.mapper().readTree(json).get("reason").asText()).isEqualTo(reason);
  }
}
