package io.kvfleet.control.demo;

import io.kvfleet.events.MemoryType;
import io.kvfleet.events.RegionKind;
import io.kvfleet.events.RegionSpec;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;

/**
 * The buffers a demo inference worker hands its node agent: a paged KV cache, an aux buffer and a
 * zero-length entry (recorded as skipped, as sglang's null entries are), all host memory it owns.
 */
final class DemoBuffers implements AutoCloseable {
  static final long PAGE = 16 * 1024;
  static final int PAGES = 1024;
  static final String KV = "kv-0";

  private final Arena arena = Arena.ofShared();
  private final MemorySegment kv;
  private final List<RegionSpec> regions = new ArrayList<>();

  DemoBuffers(byte fill) {
    kv = arena.allocate(PAGE * PAGES, 4096);
    kv.fill(fill);
    var aux = arena.allocate(64 * 1024, 4096);
    regions.add(new RegionSpec(KV, RegionKind.KV, MemoryType.DRAM, -1, kv.address(), kv.byteSize(), PAGE, "kv_data", 0));
    regions.add(new RegionSpec("aux-0", RegionKind.AUX, MemoryType.DRAM, -1, aux.address(), aux.byteSize(), 0, "aux_data", 0));
    regions.add(new RegionSpec("aux-1", RegionKind.AUX, MemoryType.DRAM, -1, 0, 0, 0, "aux_data", 1));
  }

  List<RegionSpec> regions() {
    return regions;
  }

  /** The KV page {@code index} as memory. */
  MemorySegment page(int index) {
    return kv.asSlice(index * PAGE, PAGE);
  }

  @Override
  public void close() {
    arena.close();
  }
}
