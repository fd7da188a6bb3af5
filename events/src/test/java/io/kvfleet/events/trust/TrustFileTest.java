package io.kvfleet.events.trust;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TrustFileTest {
  @TempDir Path dir;
  private final FleetKey node = FleetKey.generate("decode-0");
  private final FleetKey stranger = FleetKey.generate("decode-0");
  private final byte[] bytes = "an event".getBytes(StandardCharsets.UTF_8);

  private TrustFile trust() {
    return TrustFile.of(new KeyBinding("decode-0", node.publicKey(), Role.NODE, Set.of("decode-0"),
        Set.of("decode-0")));
  }

  @Test
  void aSavedTrustFileLoadsWithItsBindings() {
    Path file = dir.resolve("trust.json");
    trust().save(file);
    KeyBinding binding = TrustFile.load(file).binding("decode-0").orElseThrow();
    assertEquals(Role.NODE, binding.role());
    assertTrue(binding.mayProduceAs("decode-0"));
    assertTrue(binding.maySpeakFor("decode-0"));
    assertFalse(binding.maySpeakFor("prefill-0"));
    assertTrue(TrustFile.load(file).verify("decode-0", bytes, node.sign(bytes)));
  }

  @Test
  void aSignatureByAnotherKeyUnderTheSameIdIsBad() {
    assertInstanceOf(KeyCheck.BadSignature.class, trust().check("decode-0", bytes, stranger.sign(bytes)));
  }

  @Test
  void aSignatureOverOtherBytesIsBad() {
    byte[] changed = "an event!".getBytes(StandardCharsets.UTF_8);
    assertInstanceOf(KeyCheck.BadSignature.class, trust().check("decode-0", changed, node.sign(bytes)));
  }

  @Test
  void aKeyTheFileDoesNotListIsUnknown() {
    assertInstanceOf(KeyCheck.UnknownKey.class, trust().check("evil-0", bytes, node.sign(bytes)));
  }

  @Test
  void garbageInPlaceOfASignatureIsBadNotAnError() {
    assertInstanceOf(KeyCheck.BadSignature.class, trust().check("decode-0", bytes, new byte[3]));
  }

  @Test
  void refusesAnEntryWithAnUnknownRole() throws Exception {
    Path file = dir.resolve("trust.json");
    Files.writeString(file, "{\"keys\":[{\"id\":\"x\",\"role\":\"admin\",\"publicKey\":\"AAAA\"}]}");
    TrustException e = assertThrows(TrustException.class, () -> TrustFile.load(file));
    assertTrue(e.getMessage().contains("admin"), e.getMessage());
  }

  @Test
  void refusesAKeyListedTwice() throws Exception {
    Path file = dir.resolve("trust.json");
    trust().save(file);
    String one = Files.readString(file);
    String entry = one.substring(one.indexOf('[') + 1, one.lastIndexOf(']'));
    Files.writeString(file, "{\"keys\":[" + entry + "," + entry + "]}");
    assertThrows(TrustException.class, () -> TrustFile.load(file));
  }
}
