package io.kvfleet.engine.bench;

import static java.util.Objects.requireNonNull;

import java.util.List;

/**
 * What {@code kvfleet bench engine} measures (its options are read by the control plane's command
 * line and handed over as this record).
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
}
