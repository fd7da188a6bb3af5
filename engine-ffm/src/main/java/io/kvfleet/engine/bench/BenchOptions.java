package io.kvfleet.engine.bench;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What {@code kvfleet bench engine} measures.
 *
 * @param sizes the message sizes of the bandwidth rows
 * @param transports the UCX transport sets to compare on
 * @param kvPages pages per batch in the KV-page row (scattered over twice as many)
 * @param kvPageSize bytes per KV page
 * @param repeats runs per row, best kept, for kvfleet and ucx_perftest alike
 * @param perftest whether to run ucx_perftest side by side
 * @param perftestBinary the ucx_perftest to run
 */
public record BenchOptions(
    List<Long> sizes,
    List<Transport> transports,
    int kvPages,
    long kvPageSize,
    int repeats,
    boolean perftest,
    String perftestBinary) {

  /**
   * A UCX transport set and how many bytes each row moves over it.
   *
   * @param label the row label ({@code shm}, {@code tcp})
   * @param tls UCX_TLS for both processes and for ucx_perftest
   * @param bytesPerRow bytes per run of a bandwidth row (iterations = bytes / size)
   * @param kvBatches batches per run of the KV-page row
   */
  public record Transport(String label, String tls, long bytesPerRow, int kvBatches) {
    public Transport {
      requireNonNull(label, "label must not be null");
      requireNonNull(tls, "tls must not be null");
    }
  }

  public static final Transport SHM = new Transport("shm", "posix,sysv,cma,self", 2L << 30, 16);
  public static final Transport TCP = new Transport("tcp", "tcp", 256L << 20, 2);

  public BenchOptions {
    sizes = List.copyOf(sizes);
    transports = List.copyOf(transports);
    requireNonNull(perftestBinary, "perftestBinary must not be null");
    if (repeats < 1 || kvPages < 1 || kvPageSize < 1) {
      throw new IllegalArgumentException("repeats, kvPages and kvPageSize must be positive");
    }
  }

  /** 4 KiB, 64 KiB, 1 MiB, 4 MiB and 4,096 scattered 16 KiB pages, over shm and TCP, best of 3. */
  public static BenchOptions defaults() {
    return new BenchOptions(List.of(4L << 10, 64L << 10, 1L << 20, 4L << 20), List.of(SHM, TCP),
        4096, 16L << 10, 3, true, "ucx_perftest");
  }

  /**
   * Parses {@code --sizes 4k,64k --transports shm,tcp --repeats 3 --no-perftest --perftest PATH
   * --quick} (quick: an eighth of the bytes, one run).
   */
  public static BenchOptions parse(String... args) {
    BenchOptions options = defaults();
    for (int i = 0; i < args.length; i++) {
      String arg = args[i];
      switch (arg) {
        case "--sizes" -> options = options.withSizes(parseSizes(args[++i]));
        case "--transports" -> options = options.withTransports(parseTransports(args[++i]));
        case "--repeats" -> options = options.withRepeats(Integer.parseInt(args[++i]));
        case "--no-perftest" -> options = options.withPerftest(false, options.perftestBinary());
        case "--perftest" -> options = options.withPerftest(true, args[++i]);
        case "--quick" -> options = options.quick();
        default -> throw new IllegalArgumentException("unknown option " + arg + "; options: --sizes"
            + " 4k,64k,1m,4m --transports shm,tcp --repeats N --no-perftest --perftest PATH --quick");
      }
    }
    return options;
  }

  public BenchOptions withSizes(List<Long> newSizes) {
    return new BenchOptions(newSizes, transports, kvPages, kvPageSize, repeats, perftest, perftestBinary);
  }

  public BenchOptions withTransports(List<Transport> newTransports) {
    return new BenchOptions(sizes, newTransports, kvPages, kvPageSize, repeats, perftest, perftestBinary);
  }

  public BenchOptions withRepeats(int newRepeats) {
    return new BenchOptions(sizes, transports, kvPages, kvPageSize, newRepeats, perftest, perftestBinary);
  }

  public BenchOptions withPerftest(boolean run, String binary) {
    return new BenchOptions(sizes, transports, kvPages, kvPageSize, repeats, run, binary);
  }

  public BenchOptions withKvPages(int pages, long pageSize) {
    return new BenchOptions(sizes, transports, pages, pageSize, repeats, perftest, perftestBinary);
  }

  /** An eighth of the bytes per row and one run: a smoke test, not a measurement. */
  public BenchOptions quick() {
    List<Transport> smaller = transports.stream()
        .map(t -> new Transport(t.label(), t.tls(), t.bytesPerRow() / 8, 1))
        .toList();
    return new BenchOptions(sizes, smaller, kvPages, kvPageSize, 1, perftest, perftestBinary);
  }

  static List<Long> parseSizes(String text) {
    List<Long> parsed = new ArrayList<>();
    for (String size : text.split(",")) {
      String s = size.trim().toLowerCase(Locale.ROOT);
      long unit = s.endsWith("k") ? 1L << 10 : s.endsWith("m") ? 1L << 20 : 1;
      parsed.add(Long.parseLong(unit == 1 ? s : s.substring(0, s.length() - 1)) * unit);
    }
    return parsed;
  }

  static List<Transport> parseTransports(String text) {
    List<Transport> parsed = new ArrayList<>();
    for (String name : text.split(",")) {
      parsed.add(switch (name.trim()) {
        case "shm" -> SHM;
        case "tcp" -> TCP;
        default -> throw new IllegalArgumentException("unknown transport set " + name + " (shm, tcp)");
      });
    }
    return parsed;
  }
}
