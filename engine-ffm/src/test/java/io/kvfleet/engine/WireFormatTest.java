package io.kvfleet.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** Exported addresses and keys survive a round trip; damaged ones are refused with a message. */
class WireFormatTest {
  private final RemoteKey key = new RemoteKey("ucx", 0x7f00_1234_0000L, 1 << 20, new byte[] {1, 2, 3});

  @Test
  void aRemoteKeyRoundTripsThroughBytesAndBase64() {
    assertThat(RemoteKey.fromBytes(key.toBytes())).isEqualTo(key);
    assertThat(RemoteKey.fromBase64(key.toBase64())).isEqualTo(key);
  }

  @Test
  void aWorkerAddressRoundTripsThroughBase64() {
    WorkerAddress address = new WorkerAddress("host", new byte[] {9, 8, 7});
    assertThat(WorkerAddress.fromBase64(address.toBase64())).isEqualTo(address);
  }

  @Test
  void refusesATruncatedKey() {
    byte[] bytes = key.toBytes();
    assertThatThrownBy(() -> RemoteKey.fromBytes(Arrays.copyOf(bytes, bytes.length - 2)))
        .isInstanceOf(EngineException.class).hasMessageContaining("malformed remote key");
  }

  @Test
  void refusesAWorkerAddressPassedAsAKey() {
    byte[] address = new WorkerAddress("ucx", new byte[16]).toBytes();
    assertThatThrownBy(() -> RemoteKey.fromBytes(address))
        .isInstanceOf(EngineException.class).hasMessageContaining("bad magic");
  }

  @Test
  void refusesTextThatIsNotBase64() {
    assertThatThrownBy(() -> WorkerAddress.fromBase64("not base64!"))
        .isInstanceOf(EngineException.class).hasMessageContaining("not base64");
  }

  @Test
  void keepsItsBytesToItself() {
    byte[] packed = key.packed();
    packed[0] = 42;
    assertThat(key.packed()[0]).isEqualTo((byte) 1);
  }
}
