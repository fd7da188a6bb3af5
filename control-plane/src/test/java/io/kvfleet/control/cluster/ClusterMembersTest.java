package io.kvfleet.control.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kvfleet.control.KvfleetException;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

class ClusterMembersTest {
  @Test
  void aHostAloneAndAHostWithAPortAreKeptAsGiven() {
    assertThat(ClusterMembers.expand(List.of("127.0.0.1", " node-1:5801", "[::1]", "[::1]:5701")))
        .containsExactly("127.0.0.1", "node-1:5801", "[::1]", "[::1]:5701");
  }

  @Test
  void aPortRangeNamesEveryPortInIt() {
    assertThat(ClusterMembers.expand(List.of("10.0.0.5:5701-5704")))
        .containsExactly("10.0.0.5:5701", "10.0.0.5:5702", "10.0.0.5:5703", "10.0.0.5:5704");
  }

  @Test
  void aHostAloneIsContactedOnTheTenPortsFromTheClusterPortAndAPortAsGiven() {
    var contacts = ClusterMembers.contacts(List.of("10.0.0.5", "[::1]:7900", "node-1:7801-7802"), 7800);

    assertThat(contacts).extracting(a -> a.getHostString() + " " + a.getPort()).containsExactly(
        "10.0.0.5 7800", "10.0.0.5 7801", "10.0.0.5 7802", "10.0.0.5 7803", "10.0.0.5 7804", "10.0.0.5 7805",
        "10.0.0.5 7806", "10.0.0.5 7807", "10.0.0.5 7808", "10.0.0.5 7809", "::1 7900", "node-1 7801", "node-1 7802");
    assertThat(contacts).allSatisfy(a -> assertThat(a.isUnresolved()).as("resolved only when the member joins").isTrue());
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "127.0.0.1:x | 'x' is not a port (1 to 65535)",
      "127.0.0.1:0 | '0' is not a port (1 to 65535)",
      "127.0.0.1:5710-5701 | the range ends before it starts",
      "127.0.0.1:1000-9000 | a range may name at most 1024 ports",
      ":5701 | no host before the port"})
  void aMalformedEntryIsNamedWithWhatIsWrong(String entry, String why) {
    assertThatThrownBy(() -> ClusterMembers.expand(List.of(entry)))
        .isInstanceOf(KvfleetException.class)
        .hasMessage("--cluster-members entry '" + entry + "': " + why + "; give host, host:port or host:first-last");
  }
}
