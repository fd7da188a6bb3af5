package io.kvfleet.events.snapshot;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

/**
 * Values of every kind the canonical form takes, from a seed: strings of every shape of UTF-8
 * (empty, ASCII, Latin-1, other planes, surrogate pairs, lone surrogates, lengths whose low byte is
 * negative as a signed byte), numbers, enums (one with a constant body), instants, records with
 * primitive, string and other components, and lists and maps nested in each other, maps keyed by
 * strings, by ASCII strings only (the fast sort), by other values and by null, with null values.
 */
final class RandomValues {
  /** An enum whose second constant has a body, so its class is not its declaring class. */
  enum Tone {
    LOW,
    HIGH {
      @Override
      public String toString() {
        return "high";
      }
    }
  }

  /** A record of every component kind that {@link Canonical} reads without boxing, and others. */
  record Leaf(long n, int i, boolean b, String s, Instant at, Tone tone, Integer boxed) {}

  /** A record of values of any kind. */
  record Node(Object value, List<Object> list, Map<Object, Object> map) {}

  private final Random random;

  RandomValues(long seed) {
    this.random = new Random(seed);
  }

  /** A value nested at most {@code depth} deep. */
  Object value(int depth) {
    int kinds = depth == 0 ? 8 : 12;
    return switch (random.nextInt(kinds)) {
      case 0 -> null;
      case 1, 2 -> string();
      case 3 -> random.nextBoolean() ? random.nextLong() : (long) random.nextInt(300) - 150;
      case 4 -> random.nextInt();
      case 5 -> random.nextBoolean();
      case 6 -> random.nextBoolean() ? Tone.values()[random.nextInt(2)] : Thread.State.values()[random.nextInt(6)];
      case 7 -> random.nextBoolean() ? instant() : leaf();
      case 8 -> new Node(value(depth - 1), list(depth - 1), map(depth - 1));
      case 9 -> list(depth - 1);
      default -> map(depth - 1);
    };
  }

  Leaf leaf() {
    return new Leaf(random.nextLong(), random.nextInt(), random.nextBoolean(), random.nextInt(5) == 0 ? null : string(),
        random.nextInt(5) == 0 ? null : instant(), random.nextInt(5) == 0 ? null : Tone.values()[random.nextInt(2)],
        random.nextInt(5) == 0 ? null : random.nextInt());
  }

  private Instant instant() {
    return Instant.ofEpochSecond(random.nextLong(-1L << 40, 1L << 40), random.nextInt(1_000_000_000));
  }

  List<Object> list(int depth) {
    int size = random.nextInt(6);
    List<Object> list = new ArrayList<>(size);
    for (int i = 0; i < size; i++) {
      list.add(value(depth));
    }
    return list;
  }

  Map<Object, Object> map(int depth) {
    int size = random.nextInt(random.nextInt(10) == 0 ? 300 : 12);
    int keys = random.nextInt(4);
    Map<Object, Object> map = keys == 0 ? new TreeMap<>() : random.nextBoolean() ? new HashMap<>() : new LinkedHashMap<>();
    for (int i = 0; i < size; i++) {
      Object key = switch (keys) {
        case 0, 1 -> asciiString();
        case 2 -> string();
        default -> value(0);
      };
      map.put(key, value(depth));
    }
    return map;
  }

  String string() {
    return random.nextInt(3) == 0 ? asciiString() : anyString();
  }

  /** ASCII only, often ids of a few lengths, sometimes 127 to 300 chars long, rarely past a buffer. */
  String asciiString() {
    int length = switch (random.nextInt(10)) {
      case 0 -> 0;
      case 1 -> 127 + random.nextInt(200);
      case 2 -> random.nextInt(50) == 0 ? (1 << 16) - 5 + random.nextInt(10) : random.nextInt(3);
      default -> 1 + random.nextInt(12);
    };
    var s = new StringBuilder(length);
    for (int i = 0; i < length; i++) {
      s.append((char) (random.nextInt(4) == 0 ? random.nextInt(0x80) : 'a' + random.nextInt(4)));
    }
    return s.toString();
  }

  private String anyString() {
    int length = random.nextInt(10) == 0 ? 100 + random.nextInt(100) : random.nextInt(8);
    var s = new StringBuilder();
    for (int i = 0; i < length; i++) {
      switch (random.nextInt(7)) {
        case 0 -> s.append((char) random.nextInt(0x80));
        case 1 -> s.append((char) (0x80 + random.nextInt(0x80))); // Latin-1: a compact string's negative bytes
        case 2 -> s.append((char) (0x100 + random.nextInt(0xD800 - 0x100)));
        case 3 -> s.appendCodePoint(0x10000 + random.nextInt(0x10FFFF - 0x10000)); // a surrogate pair
        case 4 -> s.append((char) (0xD800 + random.nextInt(0x800))); // a lone surrogate: '?' in UTF-8
        case 5 -> s.append((char) (0xE000 + random.nextInt(0x2000)));
        default -> s.append('a');
      }
    }
    return s.toString();
  }
}
