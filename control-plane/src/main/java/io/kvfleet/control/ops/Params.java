package io.kvfleet.control.ops;

import io.vertx.ext.web.RoutingContext;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/** Reads and checks query parameters; a bad one throws {@link BadParameter} naming it and what fits. */
final class Params {
  private final RoutingContext ctx;

  Params(RoutingContext ctx) {
    this.ctx = ctx;
  }

  Optional<String> text(String name) {
    return Optional.ofNullable(ctx.queryParams().get(name)).filter(v -> !v.isEmpty());
  }

  int integer(String name, int defaultValue, int min, int max) {
    var raw = text(name);
    if (raw.isEmpty()) {
      return defaultValue;
    }
    try {
      int value = Integer.parseInt(raw.get());
      if (value < min || value > max) {
        throw new BadParameter(name + " must be " + min + " to " + max + ", not " + value);
      }
      return value;
    } catch (NumberFormatException e) {
      throw new BadParameter(name + " must be a whole number, not '" + raw.get() + "'");
    }
  }

  long longValue(String name, long defaultValue) {
    var raw = text(name);
    try {
      long value = raw.map(Long::parseLong).orElse(defaultValue);
      if (value < 0) {
        throw new BadParameter(name + " must not be negative, not " + value);
      }
      return value;
    } catch (NumberFormatException e) {
      throw new BadParameter(name + " must be a whole number, not '" + raw.get() + "'");
    }
  }

  Optional<Instant> time(String name) {
    return text(name).map(raw -> {
      try {
        return Instant.parse(raw);
      } catch (DateTimeParseException e) {
        throw new BadParameter(name + " must be an RFC 3339 time such as 2026-01-31T12:00:00Z, not '" + raw + "'");
      }
    });
  }

  /** A value of {@code type} (case does not matter), or empty when the parameter is absent. */
  <E extends Enum<E>> Optional<E> choice(String name, Class<E> type) {
    return text(name).map(raw -> {
      try {
        return Enum.valueOf(type, raw.toUpperCase(Locale.ROOT));
      } catch (IllegalArgumentException e) {
        throw new BadParameter(name + " must be one of " + Arrays.toString(type.getEnumConstants()) + ", not '"
            + raw + "'");
      }
    });
  }

  /** One of {@code allowed}, or empty when the parameter is absent. */
  Optional<String> oneOf(String name, Set<String> allowed, Function<String, String> normalize) {
    return text(name).map(normalize).map(v -> {
      if (!allowed.contains(v)) {
        throw new BadParameter(name + " must be one of " + new java.util.TreeSet<>(allowed) + ", not '" + v + "'");
      }
      return v;
    });
  }
}
