package io.kvfleet.control.dataplane;

import io.kvfleet.engine.DeviceAccess;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Device memory for a worker's buffers (the demo's state tensors), from the engine's device
 * runtime; closing frees all of it.
 */
public final class DeviceBuffers implements AutoCloseable {
  private final DeviceAccess device;
  private final List<DeviceAccess.Buffer> allocated = new ArrayList<>();

  private DeviceBuffers(DeviceAccess device) {
    this.device = device;
  }

  /** Device memory where a runtime, a driver and a GPU answer here; empty otherwise. */
  public static Optional<DeviceBuffers> usable() {
    return DeviceAccess.find().filter(d -> d.unavailable().isEmpty()).map(DeviceBuffers::new);
  }

  /** The address of {@code length} new bytes on GPU {@code ordinal}. */
  public synchronized long allocate(int ordinal, long length) {
    var buffer = device.allocateDevice(ordinal, length);
    allocated.add(buffer);
    return buffer.address();
  }

  @Override
  public synchronized void close() {
    allocated.forEach(DeviceAccess.Buffer::close);
    allocated.clear();
  }
}
