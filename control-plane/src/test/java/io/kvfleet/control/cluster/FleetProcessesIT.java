package io.kvfleet.control.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Map;

/**
 * The fleet of processes with the engine as installed: UCX moves the bytes when the node has it
 * (the launcher installs it), the host backend otherwise, and the data path says which.
 */
class FleetProcessesIT extends FleetProcessesContract {
  @Override
  Map<String, String> environment() {
    return Map.of();
  }

  @Override
  void checkDataPath(String path, JsonNode capabilities) {
    boolean ucx = false;
    for (JsonNode backend : capabilities) {
      if (backend.path("backend").asText().equals("ucx")) {
        ucx = backend.path("available").asBoolean();
        if (!ucx) {
          System.out.println("FleetProcessesIT: UCX is not available on this node (" + backend.path("detail").asText()
              + "); its bytes go the host path");
        }
      }
    }
    assertThat(path).as("data path").startsWith(ucx ? "ucx/" : "host/");
  }
}
