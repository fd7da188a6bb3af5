package io.kvfleet.control.ops;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kvfleet.control.KvfleetException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ApiTokenTest {
  @TempDir Path dir;

  @Test
  void aTokenFileWinsOverTheEnvironment() throws Exception {
    var file = Files.writeString(dir.resolve("token"), "from-file\n");
    var token = ApiToken.resolve(file, Map.of(ApiToken.ENV, "from-env"));
    assertThat(token.value()).isEqualTo("from-file");
    assertThat(token.generated()).isFalse();
  }

  @Test
  void theEnvironmentGivesTheTokenWithoutAFile() {
    assertThat(ApiToken.resolve(null, Map.of(ApiToken.ENV, "from-env")).value()).isEqualTo("from-env");
  }

  @Test
  void withNeitherATokenIsMadeUpAndSaysSo() {
    var one = ApiToken.resolve(null, Map.of());
    var two = ApiToken.resolve(null, Map.of());
    assertThat(one.generated()).isTrue();
    assertThat(one.value()).hasSize(48).isNotEqualTo(two.value());
  }

  @Test
  void anEmptyOrMissingFileIsRefusedWithItsName() throws Exception {
    var empty = Files.writeString(dir.resolve("empty"), "  \n");
    assertThatThrownBy(() -> ApiToken.resolve(empty, Map.of())).isInstanceOf(KvfleetException.class)
        .hasMessageContaining("empty").hasMessageContaining(empty.toString());
    assertThatThrownBy(() -> ApiToken.resolve(dir.resolve("absent"), Map.of())).isInstanceOf(KvfleetException.class)
        .hasMessageContaining("cannot read the API token file");
  }

  @Test
  void matchesOnlyItsOwnValueAndNeverPrintsIt() {
    var token = new ApiToken("secret-1", false);
    assertThat(token.matches("secret-1")).isTrue();
    assertThat(token.matches("secret-2")).isFalse();
    assertThat(token.matches(null)).isFalse();
    assertThat(token.toString()).doesNotContain("secret");
  }
}
