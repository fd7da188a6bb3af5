package io.kvfleet.events.codec;

/** Why a document is not a readable event; thrown and caught inside the codec only. */
final class Malformation extends RuntimeException {
  Malformation(String reason) {
    super(reason, null, false, false);
  }

  static Malformation missing(String attribute) {
    return new Malformation("missing attribute '" + attribute + "'");
  }

  static Malformation invalid(String attribute, String why) {
    return new Malformation("attribute '" + attribute + "' " + why);
  }
}
