package io.kvfleet.control.demo;

import io.kvfleet.control.agent.Component;
import io.kvfleet.control.agent.ServedComponent;
import io.kvfleet.control.agent.ServedModel;
import io.kvfleet.events.MemoryType;
import io.kvfleet.events.RegionKind;
import java.lang.foreign.MemorySegment;
import java.util.function.LongFunction;
import java.util.ArrayList;
import java.util.List;

/**
 * The hybrid model a demo node serves for request transfers: a paged KV cache over its attention
 * layers, conv and SSM state over its linear-attention layers, and aux slots, in host memory (so it
 * registers on any machine). A node may serve it without the SSM state: the vLLM regression that
 * registered the conv state only.
 */
final class HybridModel {
  static final String MODEL = "demo-hybrid";
  static final int KV_LAYERS = 8;
  static final int PAGES = 64;
  static final long PAGE = 16 * 1024;
  static final int STATE_LAYERS = 4;
  static final int SLOTS = 32;
  static final long CONV_ITEM = 4 * 1024;
  static final long SSM_ITEM = 16 * 1024;
  static final long AUX_ITEM = 512;

  private final LongFunction<MemorySegment> allocator;
  private final ServedModel model;

  /** A model whose buffers {@code allocator} makes (the serving node's engine: they live as long as it). */
  HybridModel(byte fill, boolean withSsm, LongFunction<MemorySegment> allocator) {
    this.allocator = allocator;
    List<ServedComponent> components = new ArrayList<>();
    components.add(component("kv", RegionKind.KV, KV_LAYERS, PAGES, PAGE, fill, "bfloat16", 16,
        java.util.stream.IntStream.range(0, KV_LAYERS).map(i -> 2 * i + 1).boxed().toList()));
    var stateLayers = java.util.stream.IntStream.range(0, STATE_LAYERS).map(i -> 2 * i).boxed().toList();
    components.add(component("conv", RegionKind.STATE, STATE_LAYERS, SLOTS, CONV_ITEM, fill, "bfloat16", 1, stateLayers));
    if (withSsm) {
      components.add(component("ssm", RegionKind.STATE, STATE_LAYERS, SLOTS, SSM_ITEM, fill, "float32", 1, stateLayers));
    }
    components.add(component("aux", RegionKind.AUX, 1, SLOTS, AUX_ITEM, fill, "int32", 1, List.of(0)));
    model = new ServedModel(MODEL, 0, 1, components);
  }

  private ServedComponent component(String name, RegionKind kind, int buffers, int slots, long item, byte fill,
      String dtype, int pageSize, List<Integer> layers) {
    List<Long> addresses = new ArrayList<>();
    List<Long> lengths = new ArrayList<>();
    List<Long> items = new ArrayList<>();
    for (int b = 0; b < buffers; b++) {
      var buffer = allocator.apply(slots * item);
      buffer.fill(fill);
      addresses.add(buffer.address());
      lengths.add(buffer.byteSize());
      items.add(item);
    }
    return new ServedComponent(new Component(name, kind, MemoryType.DRAM, -1, addresses, lengths, items), dtype,
        pageSize, layers);
  }

  ServedModel served() {
    return model;
  }

}
