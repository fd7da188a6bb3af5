package io.kvfleet.control.cli;

import java.time.Duration;
import java.util.regex.Pattern;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** Reads durations as operators write them: {@code 500ms}, {@code 30s}, {@code 2m}, {@code 1h}. */
final class DurationConverter implements ITypeConverter<Duration> {
  private static final Pattern FORMAT = Pattern.compile("(\\d+)(ms|s|m|h)");

  @Override
  public Duration convert(String value) {
    var m = FORMAT.matcher(value.trim());
    if (!m.matches()) {
      throw new TypeConversionException(
          "'" + value + "' is not a duration: write a number and a unit, e.g. 500ms, 30s, 2m, 1h");
    }
    long n = Long.parseLong(m.group(1));
    return switch (m.group(2)) {
      case "ms" -> Duration.ofMillis(n);
      case "s" -> Duration.ofSeconds(n);
      case "m" -> Duration.ofMinutes(n);
      case "h" -> Duration.ofHours(n);
      default -> throw new TypeConversionException("unknown unit in " + value);
    };
  }
}
