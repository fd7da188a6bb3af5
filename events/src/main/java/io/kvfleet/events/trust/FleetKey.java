package io.kvfleet.events.trust;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.Signature;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.Set;

/**
 * A producer's Ed25519 private key and its key id (the file's name without {@code .key}); signs what the
 * producer writes. Loaded from a PKCS#8 PEM file that only its owner may read.
 */
public final class FleetKey {
  private static final String LABEL = "PRIVATE KEY";
  private final String keyId;
  private final PrivateKey privateKey;
  private final PublicKey publicKey;

  private FleetKey(String keyId, PrivateKey privateKey, PublicKey publicKey) {
    this.keyId = requireNonNull(keyId, "key id must not be null");
    this.privateKey = requireNonNull(privateKey, "private key must not be null");
    this.publicKey = publicKey;
  }

  /** A new random key with this id. */
  public static FleetKey generate(String keyId) {
    try {
      KeyPair pair = KeyPairGenerator.getInstance("Ed25519").generateKeyPair();
      return new FleetKey(keyId, pair.getPrivate(), pair.getPublic());
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("this JDK has no Ed25519", e);
    }
  }

  /** The key in {@code file} (PKCS#8 PEM, mode 0600 or stricter); its id is the file name less {@code .key}. */
  public static FleetKey load(Path file) {
    refuseExposed(file);
    String text;
    try {
      text = Files.readString(file, StandardCharsets.US_ASCII);
    } catch (IOException e) {
      throw TrustException.unreadable(file, e);
    }
    byte[] der = Pem.decode(LABEL, text);
    if (der == null) {
      throw TrustException.invalid(file, "no '-----BEGIN " + LABEL + "-----' block (expected a PKCS#8 PEM file)");
    }
    try {
      PrivateKey key = KeyFactory.getInstance("Ed25519").generatePrivate(new PKCS8EncodedKeySpec(der));
      String id = idOf(file);
      if (!id.matches("[A-Za-z0-9._-]+")) {
        throw TrustException.invalid(file, "a key id (the file name less .key) may hold only letters, digits, . _ -");
      }
      return new FleetKey(id, key, null);
    } catch (GeneralSecurityException | IllegalArgumentException e) {
      throw TrustException.invalid(file, "not an Ed25519 PKCS#8 private key: " + e.getMessage());
    }
  }

  private static String idOf(Path file) {
    String name = file.getFileName().toString();
    return name.endsWith(".key") ? name.substring(0, name.length() - ".key".length()) : name;
  }

  private static void refuseExposed(Path file) {
    try {
      Set<PosixFilePermission> mode = Files.getPosixFilePermissions(file);
      for (PosixFilePermission p : mode) {
        switch (p) {
          case GROUP_READ, GROUP_WRITE, OTHERS_READ, OTHERS_WRITE ->
              throw TrustException.exposed(file, PosixFilePermissions.toString(mode));
          default -> { }
        }
      }
    } catch (UnsupportedOperationException notPosix) {
      // a file system without POSIX modes: nothing to check
    } catch (IOException e) {
      throw TrustException.unreadable(file, e);
    }
  }

  /** Writes this key to {@code file} as PKCS#8 PEM, created with mode 0600. */
  public void save(Path file) {
    try {
      Files.deleteIfExists(file);
      Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
      Files.writeString(file, Pem.encode(LABEL, privateKey.getEncoded()), StandardCharsets.US_ASCII);
    } catch (IOException e) {
      throw TrustException.unreadable(file, e);
    }
  }

  /** The id under which the trust file lists this key's public half. */
  public String keyId() {
    return keyId;
  }

  /** The public half, known only for a key made by {@link #generate}. */
  public PublicKey publicKey() {
    if (publicKey == null) {
      throw new IllegalStateException("the public half of a loaded key is in the trust file, not here");
    }
    return publicKey;
  }

  /** The Ed25519 signature (64 bytes) of {@code bytes}. */
  public byte[] sign(byte[] bytes) {
    try {
      Signature signer = Signature.getInstance("Ed25519");
      signer.initSign(privateKey);
      signer.update(bytes);
      return signer.sign();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("Ed25519 signing failed", e);
    }
  }

  @Override
  public String toString() {
    return "FleetKey[" + keyId + "]";
  }
}
