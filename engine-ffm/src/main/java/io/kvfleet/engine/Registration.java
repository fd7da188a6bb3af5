package io.kvfleet.engine;

import io.kvfleet.engine.internal.Hex;
import io.kvfleet.engine.spi.BackendRegion;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A live registration of one region with one backend. Owned by the engine that made it; {@link
 * Engine#deregister(Registration)} ends it.
 */
public final class Registration {
  private final Engine engine;
  private final String backend;
  private final RegionRequest request;
  private final RemoteKey remoteKey;
  private final Runnable onRelease;
  private final AtomicInteger inFlight = new AtomicInteger();
  final BackendRegion region;
  private volatile boolean live = true;

  Registration(Engine engine, String backend, RegionRequest request, BackendRegion region,
      Runnable onRelease) {
    this.engine = engine;
    this.backend = backend;
    this.request = request;
    this.region = region;
    this.onRelease = onRelease;
    this.remoteKey = new RemoteKey(backend, region.address(), region.length(), region.packedKey());
  }

  /** The backend that holds it. */
  public String backend() {
    return backend;
  }

  /** What was asked for. */
  public RegionRequest request() {
    return request;
  }

  /** The first registered byte in this process. */
  public long address() {
    return region.address();
  }

  public long length() {
    return region.length();
  }

  /** What a peer needs to reach this region; publish {@link RemoteKey#toBase64()}. */
  public RemoteKey remoteKey() {
    return remoteKey;
  }

  /** Whether it is still registered. */
  public boolean isLive() {
    return live;
  }

  /** The transfer batches touching it that have not ended. */
  public int inFlight() {
    return inFlight.get();
  }

  Engine engine() {
    return engine;
  }

  void hold() {
    inFlight.incrementAndGet();
  }

  void release() {
    inFlight.decrementAndGet();
  }

  /** Ends the registration once; the engine serialises calls. */
  boolean end() {
    if (!stop()) {
      return false;
    }
    int busy = inFlight.get();
    if (busy > 0) {
      live = true;
      throw EngineException.busy(describe(), busy);
    }
    close();
    return true;
  }

  /** Takes no new batch from now on; false if it was ended already. The engine serialises calls. */
  boolean stop() {
    if (!live) {
      return false;
    }
    live = false; // before inFlight is read: a post holds first, then reads live
    return true;
  }

  /** Takes batches again after a {@link #stop} that was not followed by its close. */
  void resume() {
    live = true;
  }

  /** Lets the region go, after a {@link #stop} with nothing in flight. */
  void close() {
    try {
      region.close();
    } finally {
      onRelease.run();
    }
  }

  /** Ends the registration even with batches in flight (the engine is closing). */
  void forceEnd() {
    if (live) {
      live = false;
      try {
        region.close();
      } finally {
        onRelease.run();
      }
    }
  }

  /** {@code kv-L0 on ucx at 0x7f..+4096}. */
  public String describe() {
    return request.regionId() + " on " + backend + " at " + Hex.range(address(), length());
  }

  @Override
  public String toString() {
    return "Registration[" + describe() + (live ? "" : ", deregistered") + "]";
  }
}
