package io.kvfleet.engine;

import static java.util.Objects.requireNonNull;

import io.kvfleet.engine.spi.TransferOps;
import java.util.Arrays;

/**
 * A list of byte ranges to move between local registrations and a peer's regions, e.g. the KV
 * pages of one request. Reusable ({@link #clear()}) once a post of it has returned. Posting it
 * again unchanged to the same peer skips the range-by-range checks (like NIXL's prepared
 * descriptor lists): only its regions' liveness is checked again. Not thread-safe: one thread
 * builds and posts it.
 */
public final class TransferBatch {
  private Registration[] local = new Registration[16];
  private RemoteRegion[] remote = new RemoteRegion[16];
  private long[] localOffset = new long[16];
  private long[] remoteOffset = new long[16];
  private long[] length = new long[16];
  private int size;
  private long totalBytes;
  private int version;
  final TransferOps ops = new TransferOps();
  /** What the last successful check proved; valid while {@link #version} is unchanged. */
  Prepared prepared;

  /** A batch checked for one peer: its distinct regions, to re-check for liveness only. */
  record Prepared(Peer peer, int version, Registration[] locals, RemoteRegion[] remotes) {}

  /** Adds {@code bytes} bytes at {@code localAt} in {@code localRegion} ↔ {@code remoteAt} in {@code remoteRegion}. */
  public TransferBatch add(Registration localRegion, long localAt, RemoteRegion remoteRegion,
      long remoteAt, long bytes) {
    requireNonNull(localRegion, "local registration must not be null");
    requireNonNull(remoteRegion, "remote region must not be null");
    if (size == length.length) {
      int capacity = size * 2;
      local = Arrays.copyOf(local, capacity);
      remote = Arrays.copyOf(remote, capacity);
      localOffset = Arrays.copyOf(localOffset, capacity);
      remoteOffset = Arrays.copyOf(remoteOffset, capacity);
      length = Arrays.copyOf(length, capacity);
    }
    version++;
    local[size] = localRegion;
    remote[size] = remoteRegion;
    localOffset[size] = localAt;
    remoteOffset[size] = remoteAt;
    length[size] = bytes;
    size++;
    totalBytes += bytes;
    return this;
  }

  /** Empties the batch, keeping its capacity. */
  public TransferBatch clear() {
    version++;
    Arrays.fill(local, 0, size, null);
    Arrays.fill(remote, 0, size, null);
    size = 0;
    totalBytes = 0;
    return this;
  }

  public int size() {
    return size;
  }

  /** Changes with every {@link #add} and {@link #clear}. */
  int version() {
    return version;
  }

  /** The sum of the ops' lengths. */
  public long totalBytes() {
    return totalBytes;
  }

  public Registration local(int i) {
    return local[i];
  }

  public RemoteRegion remote(int i) {
    return remote[i];
  }

  public long localOffset(int i) {
    return localOffset[i];
  }

  public long remoteOffset(int i) {
    return remoteOffset[i];
  }

  public long length(int i) {
    return length[i];
  }
}
