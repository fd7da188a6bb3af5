package io.kvfleet.control.demo;

import io.kvfleet.control.agent.Component;
import io.kvfleet.control.dataplane.DeviceBuffers;
import io.kvfleet.events.MemoryType;
import io.kvfleet.events.RegionKind;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.LongFunction;

/**
 * The buffers a demo inference worker hands its node agent, shaped as sglang hands them: a paged
 * KV cache, aux buffers with a zero-length entry (recorded as skipped, not dropped) and, for a
 * hybrid model, state tensors requested as VRAM.
 *
 * <p>With a usable GPU the state tensors are real device memory ({@code cudaMalloc} on GPU 0) and
 * register for real. Without one their addresses are host memory standing in for device pointers:
 * what the demo shows there is the diagnosed refusal, which every backend gives before it touches
 * the pointer.
 */
final class DemoBuffers implements AutoCloseable {
  static final long PAGE = 16 * 1024;
  static final int PAGES = 1024;
  static final String KV = "kv_data-0";
  static final int STATE_TENSORS = 4;
  static final long STATE_ITEM = 8 * 1024;

  private final Arena arena = Arena.ofShared();
  private final LongFunction<MemorySegment> allocator;
  private final MemorySegment kv;
  private final List<Component> components = new ArrayList<>();
  /** GPU memory for the state tensors where a usable GPU is (looked for only for a hybrid model). */
  private Optional<DeviceBuffers> device = Optional.empty();

  /**
   * Buffers from {@code allocator}: the node's engine, the only memory an agent registers by
   * address (they live as long as it does).
   */
  DemoBuffers(byte fill, boolean hybrid, LongFunction<MemorySegment> allocator) {
    this.allocator = allocator;
    kv = allocator.apply(PAGE * PAGES);
    kv.fill(fill);
    var aux = allocator.apply(64 * 1024);
    components.add(new Component("kv_data", RegionKind.KV, MemoryType.DRAM, -1,
        List.of(kv.address()), List.of(kv.byteSize()), List.of(PAGE)));
    components.add(new Component("aux_data", RegionKind.AUX, MemoryType.DRAM, -1,
        List.of(aux.address(), 0L), List.of(aux.byteSize(), 0L), List.of()));
    if (hybrid) {
      components.add(stateTensors());
    }
  }

  private Component stateTensors() {
    device = DeviceBuffers.usable();
    List<Long> addresses = new ArrayList<>();
    List<Long> lengths = new ArrayList<>();
    List<Long> items = new ArrayList<>();
    for (int i = 0; i < STATE_TENSORS; i++) {
      boolean empty = i == STATE_TENSORS - 1; // sglang passes a null entry for layers without state
      addresses.add(empty ? 0L : stateTensor(64 * STATE_ITEM));
      lengths.add(empty ? 0L : 64 * STATE_ITEM);
      items.add(STATE_ITEM);
    }
    return new Component("state_data", RegionKind.STATE, MemoryType.VRAM, 0, addresses, lengths, items);
  }

  private long stateTensor(long length) {
    if (device.isPresent()) {
      return device.get().allocate(0, length);
    }
    return arena.allocate(length, 4096).address();
  }

  List<Component> components() {
    return components;
  }

  /** The KV page {@code index} as memory. */
  MemorySegment page(int index) {
    return kv.asSlice(index * PAGE, PAGE);
  }

  @Override
  public void close() {
    device.ifPresent(DeviceBuffers::close);
    arena.close();
  }
}
