package io.kvfleet.engine.spi;

import java.util.Arrays;

/**
 * A validated batch as a backend sees it: for op {@code i}, {@code length(i)} bytes between the
 * local address (inside {@code local(i)}) and the remote address (inside {@code remote(i)}).
 * Filled by the engine, reused between batches; not thread-safe.
 */
public final class TransferOps {
  private BackendRegion[] local = new BackendRegion[16];
  private BackendRemote[] remote = new BackendRemote[16];
  private long[] localAddress = new long[16];
  private long[] remoteAddress = new long[16];
  private long[] length = new long[16];
  private int size;
  private long totalBytes;

  /** Appends one op. */
  public void add(BackendRegion localRegion, long localAt, BackendRemote remoteRegion,
      long remoteAt, long bytes) {
    if (size == length.length) {
      int capacity = size * 2;
      local = Arrays.copyOf(local, capacity);
      remote = Arrays.copyOf(remote, capacity);
      localAddress = Arrays.copyOf(localAddress, capacity);
      remoteAddress = Arrays.copyOf(remoteAddress, capacity);
      length = Arrays.copyOf(length, capacity);
    }
    local[size] = localRegion;
    remote[size] = remoteRegion;
    localAddress[size] = localAt;
    remoteAddress[size] = remoteAt;
    length[size] = bytes;
    size++;
    totalBytes += bytes;
  }

  /** Empties the list, keeping its capacity. */
  public void clear() {
    Arrays.fill(local, 0, size, null);
    Arrays.fill(remote, 0, size, null);
    size = 0;
    totalBytes = 0;
  }

  public int size() {
    return size;
  }

  public long totalBytes() {
    return totalBytes;
  }

  public BackendRegion local(int i) {
    return local[i];
  }

  public BackendRemote remote(int i) {
    return remote[i];
  }

  public long localAddress(int i) {
    return localAddress[i];
  }

  public long remoteAddress(int i) {
    return remoteAddress[i];
  }

  public long length(int i) {
    return length[i];
  }
}
