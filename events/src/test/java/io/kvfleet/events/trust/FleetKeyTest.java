package io.kvfleet.events.trust;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FleetKeyTest {
  @TempDir Path dir;

  @Test
  void aSavedKeyLoadsWithItsIdAndSignsTheSameBytesAlike() throws Exception {
    FleetKey made = FleetKey.generate("prefill-0");
    Path file = dir.resolve("prefill-0.key");
    made.save(file);
    assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
    FleetKey loaded = FleetKey.load(file);
    assertEquals("prefill-0", loaded.keyId());
    byte[] bytes = "hello".getBytes(StandardCharsets.UTF_8);
    // Ed25519 is deterministic: the same key signs the same bytes the same way.
    assertArrayEquals(made.sign(bytes), loaded.sign(bytes));
    TrustFile trust = TrustFile.of(new KeyBinding("prefill-0", made.publicKey(), Role.NODE, Set.of(), Set.of()));
    assertTrue(trust.verify("prefill-0", bytes, loaded.sign(bytes)));
  }

  @Test
  void refusesAKeyFileOthersCanRead() throws Exception {
    Path file = dir.resolve("k.key");
    FleetKey.generate("k").save(file);
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));
    TrustException e = assertThrows(TrustException.class, () -> FleetKey.load(file));
    assertTrue(e.getMessage().contains("chmod 600"), e.getMessage());
  }

  @Test
  void refusesAFileThatIsNotAPkcs8Key() throws Exception {
    Path file = dir.resolve("k.key");
    Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
    Files.writeString(file, "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n");
    assertThrows(TrustException.class, () -> FleetKey.load(file));
    Files.writeString(file, "not a key");
    assertThrows(TrustException.class, () -> FleetKey.load(file));
  }
}
