package io.kvfleet.control.ops;

/** A request parameter the API cannot use; answered 400 with its message. */
final class BadParameter extends RuntimeException {
  private static final long serialVersionUID = 1L;

  BadParameter(String message) {
    super(message, null, false, false);
  }
}
