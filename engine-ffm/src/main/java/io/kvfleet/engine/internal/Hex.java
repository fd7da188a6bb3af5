package io.kvfleet.engine.internal;

/** Formats addresses and sizes the same way in every message. */
public final class Hex {
  private Hex() {}

  /** {@code 0x7f3a00000000}. */
  public static String address(long address) {
    return "0x" + Long.toHexString(address);
  }

  /** {@code 0x7f3a00000000+4096} for a range. */
  public static String range(long address, long length) {
    return address(address) + "+" + length;
  }

  /** {@code 1.5 GiB} for diagnostics. */
  public static String bytes(long bytes) {
    String[] units = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
    double value = bytes;
    int unit = 0;
    while (value >= 1024 && unit < units.length - 1) {
      value /= 1024;
      unit++;
    }
    return unit == 0 ? bytes + " B" : String.format(java.util.Locale.ROOT, "%.1f %s", value, units[unit]);
  }
}
