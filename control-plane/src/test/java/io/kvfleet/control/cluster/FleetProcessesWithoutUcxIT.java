package io.kvfleet.control.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Map;

/**
 * The fleet of processes deployed without UCX ({@code KVFLEET_UCX=off}, as where it is not
 * installed): the nodes say UCX is off and why, and the host backend moves every byte.
 */
class FleetProcessesWithoutUcxIT extends FleetProcessesContract {
  @Override
  Map<String, String> environment() {
    return Map.of("KVFLEET_UCX", "off");
  }

  @Override
  void checkDataPath(String path, JsonNode capabilities) {
    JsonNode ucx = null;
    for (JsonNode backend : capabilities) {
      if (backend.path("backend").asText().equals("ucx")) {
        ucx = backend;
      }
    }
    assertThat(ucx).as("the ucx capability in " + capabilities).isNotNull();
    assertThat(ucx.path("available").asBoolean()).isFalse();
    assertThat(ucx.path("detail").asText()).startsWith("turned off (KVFLEET_UCX=off)");
    assertThat(path).as("data path").isEqualTo("host/shm");
  }
}
