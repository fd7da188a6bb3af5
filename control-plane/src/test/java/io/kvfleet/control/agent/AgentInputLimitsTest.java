package io.kvfleet.control.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kvfleet.control.Json;
import io.kvfleet.control.KvfleetException;
import org.junit.jupiter.api.Test;

/**
 * What the agent's API takes from a worker: numbers that are not whole are refused, not truncated, and
 * names are short enough that the events carrying them fit in a Kafka record.
 */
class AgentInputLimitsTest {
  private static String components(String name, String handle, String length) {
    return "{\"components\": [{\"name\": \"" + name + "\", \"kind\": \"KV\", \"memoryType\": \"DRAM\","
        + " \"handles\": [\"" + handle + "\"], \"lengths\": [" + length + "]}]}";
  }

  @Test
  void aLengthThatIsNotWholeIsRefusedNotTruncated() {
    assertThatThrownBy(() -> Json.read(components("kv", "shm:/kv", "1.5"), ComponentsRequest.class))
        .isInstanceOf(KvfleetException.class).hasMessageContaining("not a valid ComponentsRequest");
    assertThat(Json.read(components("kv", "shm:/kv", "4096"), ComponentsRequest.class).toComponents())
        .singleElement().satisfies(c -> assertThat(c.lengths()).containsExactly(4096L));
    // What Python's json writes for a float that is whole.
    assertThat(Json.read(components("kv", "shm:/kv", "4096.0"), ComponentsRequest.class).toComponents())
        .singleElement().satisfies(c -> assertThat(c.lengths()).containsExactly(4096L));
    assertThat(Json.read(components("kv", "shm:/kv", "null"), ComponentsRequest.class).toComponents())
        .singleElement().satisfies(c -> assertThat(c.lengths()).containsExactly(0L));
    assertThatThrownBy(() -> Json.read(components("kv", "shm:/kv", "1e30"), ComponentsRequest.class))
        .isInstanceOf(KvfleetException.class);
  }

  @Test
  void aNameOrHandleLongerThanTheLimitIsRefusedBeforeAnythingIsRegistered() {
    String longest = "k".repeat(Component.LONGEST_NAME);
    String longer = longest + "k";

    assertThat(Json.read(components(longest, "shm:/kv", "4096"), ComponentsRequest.class).toComponents()).hasSize(1);
    assertThatThrownBy(() -> Json.read(components(longer, "shm:/kv", "4096"), ComponentsRequest.class).toComponents())
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("257 characters");
    assertThatThrownBy(() -> Json.read(components("kv", "shm:/" + longer, "4096"), ComponentsRequest.class)
        .toComponents()).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("kv: a handle");
  }

  /** A 1.1 MB model id was answered 202 "pending"; its event never fit in a record and the agent could not rejoin. */
  @Test
  void aModelIdLongerThanTheLimitIsRefused() {
    String layout = "{\"modelId\": \"" + "m".repeat(1_100_000) + "\", \"kv_data_ptrs\": [0], \"kv_data_lens\": [0],"
        + " \"kv_item_lens\": [0]}";

    assertThatThrownBy(() -> Json.read(layout, LayoutRequest.class).toModel())
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("modelId is 1100000 characters long");
  }
}
