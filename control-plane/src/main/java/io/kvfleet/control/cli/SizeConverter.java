package io.kvfleet.control.cli;

import java.util.Locale;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** {@code 4096}, {@code 4k} (KiB), {@code 1m} (MiB) or {@code 2g} (GiB): a positive number of bytes. */
final class SizeConverter implements ITypeConverter<Long> {
  @Override
  public Long convert(String value) {
    String s = value.trim().toLowerCase(Locale.ROOT);
    long unit = s.endsWith("k") ? 1L << 10 : s.endsWith("m") ? 1L << 20 : s.endsWith("g") ? 1L << 30 : 1;
    try {
      long size = Math.multiplyExact(Long.parseLong(unit == 1 ? s : s.substring(0, s.length() - 1)), unit);
      if (size > 0) {
        return size;
      }
    } catch (NumberFormatException | ArithmeticException e) {
      // said below
    }
    throw new TypeConversionException("'" + value + "' is not a size: write a positive number of bytes, "
        + "optionally with k, m or g, e.g. 4k, 1m");
  }
}
