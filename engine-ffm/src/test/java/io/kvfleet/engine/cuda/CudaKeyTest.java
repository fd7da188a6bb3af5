package io.kvfleet.engine.cuda;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kvfleet.engine.EngineException;
import io.kvfleet.engine.RemoteKey;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** The bytes a cuda region and worker publish, as a peer parses them. */
class CudaKeyTest {
  private static final CudaIdentity OWNER = new CudaIdentity(4242, "0f1e2d3c-boot");

  @Test
  void anExportableKeySurvivesTheRemoteKeyWireFormat() {
    byte[] handle = new byte[64];
    Arrays.fill(handle, (byte) 7);
    CudaKey key = new CudaKey(OWNER, "0000:19:00.0", 4096, handle, "");
    RemoteKey remote = new RemoteKey("cuda", 0x7f0000001000L, 1 << 20, key.encode());
    CudaKey parsed = CudaKey.decode(RemoteKey.fromBase64(remote.toBase64()).packed());
    assertThat(parsed).isEqualTo(key);
    assertThat(parsed.exportable()).isTrue();
    assertThat(parsed.offset()).isEqualTo(4096);
  }

  @Test
  void aKeyThatCouldNotBeExportedCarriesWhy() {
    CudaKey key = new CudaKey(OWNER, "", 0, new byte[0],
        "cudaIpcGetMemHandle failed with cudaErrorInvalidValue (1)");
    CudaKey parsed = CudaKey.decode(key.encode());
    assertThat(parsed.exportable()).isFalse();
    assertThat(parsed.notExportable()).contains("cudaErrorInvalidValue");
  }

  @Test
  void refusesTruncatedAndForeignBytes() {
    byte[] encoded = new CudaKey(OWNER, "bus", 0, new byte[64], "").encode();
    assertThatThrownBy(() -> CudaKey.decode(Arrays.copyOf(encoded, encoded.length - 1)))
        .isInstanceOf(EngineException.class).hasMessageContaining("malformed cuda key");
    assertThatThrownBy(() -> CudaKey.decode(new byte[] {9, 0, 0}))
        .isInstanceOf(EngineException.class).hasMessageContaining("unsupported version 9");
    assertThatThrownBy(() -> CudaIdentity.decode(new byte[] {1, 0}))
        .isInstanceOf(EngineException.class).hasMessageContaining("cuda worker address");
  }

  @Test
  void aWorkerIsOnTheSameHostWhenTheBootIdsMatch() {
    CudaIdentity self = CudaIdentity.self();
    assertThat(CudaIdentity.decode(self.encode())).isEqualTo(self);
    assertThat(self.sameProcess(new CudaIdentity(self.pid(), self.bootId()))).isTrue();
    assertThat(self.sameHost(new CudaIdentity(self.pid() + 1, self.bootId()))).isTrue();
    assertThat(self.sameHost(new CudaIdentity(self.pid(), "another-boot"))).isFalse();
  }

  @Test
  void anIpcHandleTravelsAsBase64() {
    byte[] bytes = new byte[64];
    bytes[0] = 1;
    bytes[63] = (byte) 0xff;
    IpcHandle handle = new IpcHandle(bytes);
    assertThat(IpcHandle.fromBase64(handle.toBase64())).isEqualTo(handle);
    assertThatThrownBy(() -> IpcHandle.fromBase64("not base64!"))
        .isInstanceOf(EngineException.class);
  }
}
