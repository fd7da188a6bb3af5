package io.kvfleet.engine.ucx;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class UcxSwitchTest {
  @Test
  void unsetOrOnLoadsUcx() {
    assertThat(UcxSwitch.offReason("KVFLEET_UCX", null)).isEmpty();
    assertThat(UcxSwitch.offReason("KVFLEET_UCX", "")).isEmpty();
    assertThat(UcxSwitch.offReason("KVFLEET_UCX", "On")).isEmpty();
  }

  @Test
  void offKeepsUcxFromLoadingAndSaysWhoTurnedItOff() {
    assertThat(UcxSwitch.offReason("KVFLEET_UCX", "off")).hasValueSatisfying(
        reason -> assertThat(reason).startsWith("turned off (KVFLEET_UCX=off)"));
  }

  @Test
  void anotherValueIsNamedAndLeavesUcxOff() {
    assertThat(UcxSwitch.offReason("kvfleet.ucx", "maybe")).hasValueSatisfying(
        reason -> assertThat(reason).startsWith("kvfleet.ucx=maybe is neither on nor off"));
  }
}
