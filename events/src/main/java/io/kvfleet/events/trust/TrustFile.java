package io.kvfleet.events.trust;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PublicKey;
import java.security.Signature;
import java.security.spec.X509EncodedKeySpec;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The fleet's trusted public keys, each bound to a role and the producers and nodes it may speak for. On disk:
 * {@code {"keys":[{"id","publicKey" (base64 X.509 SubjectPublicKeyInfo DER),"role","producers":[],"nodes":[]}]}}.
 * Immutable; safe to share between threads.
 */
public final class TrustFile {
  private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
  private final Map<String, KeyBinding> keys;

  private TrustFile(Map<String, KeyBinding> keys) {
    this.keys = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(keys));
  }

  /** A trust file with no keys. */
  public static TrustFile empty() {
    return new TrustFile(Map.of());
  }

  /** A trust file listing exactly these keys. */
  public static TrustFile of(KeyBinding... bindings) {
    TrustFile file = empty();
    for (KeyBinding binding : bindings) {
      file = file.with(binding);
    }
    return file;
  }

  /** The trust file at {@code file}; throws with the file and the reason when it cannot be read as one. */
  public static TrustFile load(Path file) {
    JsonNode root;
    try {
      root = JSON.readTree(file.toFile());
    } catch (IOException e) {
      throw TrustException.unreadable(file, e);
    }
    if (root == null || !root.path("keys").isArray()) {
      throw TrustException.invalid(file, "expected an object with a \"keys\" array");
    }
    Map<String, KeyBinding> keys = new LinkedHashMap<>();
    int index = 0;
    for (JsonNode entry : root.path("keys")) {
      String where = "keys[" + index++ + "]";
      KeyBinding binding = binding(file, where, entry);
      if (keys.put(binding.id(), binding) != null) {
        throw TrustException.invalid(file, where + ": key id '" + binding.id() + "' listed twice");
      }
    }
    return new TrustFile(keys);
  }

  private static KeyBinding binding(Path file, String where, JsonNode entry) {
    String id = entry.path("id").asText("");
    if (id.isEmpty()) {
      throw TrustException.invalid(file, where + ": missing \"id\"");
    }
    String roleName = entry.path("role").asText("");
    Role role = Role.fromWire(roleName).orElseThrow(() -> TrustException.invalid(file,
        where + " (" + id + "): role '" + roleName + "' is not one of node, coordinator, router"));
    PublicKey key = publicKey(entry.path("publicKey").asText("")).orElseThrow(() -> TrustException.invalid(file,
        where + " (" + id + "): \"publicKey\" is not a base64 X.509 Ed25519 public key"));
    return new KeyBinding(id, key, role, strings(entry.path("producers")), strings(entry.path("nodes")));
  }

  private static Set<String> strings(JsonNode array) {
    Set<String> out = new LinkedHashSet<>();
    array.forEach(n -> out.add(n.asText()));
    return out;
  }

  /** An Ed25519 public key from base64 SubjectPublicKeyInfo DER, if it is one. */
  static Optional<PublicKey> publicKey(String base64) {
    try {
      return Optional.of(KeyFactory.getInstance("Ed25519")
          .generatePublic(new X509EncodedKeySpec(Base64.getDecoder().decode(base64))));
    } catch (IllegalArgumentException | GeneralSecurityException e) {
      return Optional.empty();
    }
  }

  /** This trust file with {@code binding} added, or replacing the entry with the same id. */
  public TrustFile with(KeyBinding binding) {
    requireNonNull(binding, "binding must not be null");
    Map<String, KeyBinding> next = new LinkedHashMap<>(keys);
    next.put(binding.id(), binding);
    return new TrustFile(next);
  }

  /** Writes this trust file to {@code file} (world-readable: it holds only public keys). */
  public void save(Path file) {
    ObjectNode root = JSON.createObjectNode();
    ArrayNode array = root.putArray("keys");
    for (KeyBinding b : keys.values()) {
      ObjectNode entry = array.addObject();
      entry.put("id", b.id());
      entry.put("publicKey", Base64.getEncoder().encodeToString(b.publicKey().getEncoded()));
      entry.put("role", b.role().wireName());
      b.producers().forEach(entry.putArray("producers")::add);
      b.nodes().forEach(entry.putArray("nodes")::add);
    }
    try {
      Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
      JSON.writeValue(tmp.toFile(), root);
      Files.move(tmp, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING,
          java.nio.file.StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      throw TrustException.unreadable(file, e);
    }
  }

  /** The binding of key {@code keyId}, if the trust file lists it. */
  public Optional<KeyBinding> binding(String keyId) {
    return Optional.ofNullable(keys.get(keyId));
  }

  /** Every binding, in the file's order. */
  public java.util.Collection<KeyBinding> bindings() {
    return keys.values();
  }

  /** Whether {@code signature} is key {@code keyId}'s Ed25519 signature over {@code bytes}. */
  public boolean verify(String keyId, byte[] bytes, byte[] signature) {
    return check(keyId, bytes, signature) instanceof KeyCheck.Verified;
  }

  /** Checks {@code signature} over {@code bytes} against key {@code keyId}: verified, unknown key or bad. */
  public KeyCheck check(String keyId, byte[] bytes, byte[] signature) {
    KeyBinding binding = keys.get(keyId);
    if (binding == null) {
      return new KeyCheck.UnknownKey(keyId);
    }
    try {
      Signature verifier = Signature.getInstance("Ed25519");
      verifier.initVerify(binding.publicKey());
      verifier.update(bytes);
      return verifier.verify(signature) ? new KeyCheck.Verified(binding) : new KeyCheck.BadSignature(keyId);
    } catch (java.security.SignatureException malformed) {
      return new KeyCheck.BadSignature(keyId);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("Ed25519 verification unavailable", e);
    }
  }
}
