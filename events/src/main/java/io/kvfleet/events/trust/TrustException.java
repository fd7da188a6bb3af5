package io.kvfleet.events.trust;

/** A key or trust file that cannot be used as given: the message says which file and why. */
public final class TrustException extends RuntimeException {
  private TrustException(String message, Throwable cause) {
    super(message, cause);
  }

  static TrustException unreadable(java.nio.file.Path file, Throwable cause) {
    if (cause instanceof java.nio.file.NoSuchFileException) { // its message is the path alone
      return new TrustException("cannot read " + file + ": no such file (keys and the trust file are made by"
          + " 'kvfleet keys new --id ID --role ROLE --dir DIR')", cause);
    }
    return new TrustException("cannot read " + file + ": " + cause.getMessage(), cause);
  }

  static TrustException invalid(java.nio.file.Path file, String why) {
    return new TrustException(file + ": " + why, null);
  }

  static TrustException exposed(java.nio.file.Path file, String permissions) {
    return new TrustException(file + " is readable by group or others (" + permissions
        + "); a private key must be 0600: chmod 600 " + file, null);
  }
}
