package io.kvfleet.control.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kvfleet.control.KvfleetException;
import org.junit.jupiter.api.Test;

class ApiCredentialTest {
  @Test
  void matchesOnlyItsOwnValue() {
    var token = ApiCredential.random();

    assertThat(token.matches(token.value())).isTrue();
    assertThat(token.matches(token.value() + "0")).isFalse();
    assertThat(token.matches("")).isFalse();
    assertThat(token.matches(null)).isFalse();
    assertThat(ApiCredential.random()).isNotEqualTo(token);
  }

  @Test
  void neverShowsItsValue() {
    var token = ApiCredential.random();

    assertThat(token.toString()).doesNotContain(token.value());
  }

  @Test
  void refusesABlankToken() {
    assertThatThrownBy(() -> new ApiCredential(" ")).isInstanceOf(KvfleetException.class);
    assertThatThrownBy(() -> new ApiCredential(" abc")).isInstanceOf(KvfleetException.class);
  }
}
