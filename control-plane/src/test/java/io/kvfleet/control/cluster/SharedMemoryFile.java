package io.kvfleet.control.cluster;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/** A POSIX shared-memory object made the way a worker would ({@code /dev/shm/<name>}), mapped here. */
final class SharedMemoryFile implements AutoCloseable {
  private final Path path;
  private final Arena arena = Arena.ofShared();
  private final MemorySegment memory;

  SharedMemoryFile(String name, long length) throws IOException {
    this.path = Path.of("/dev/shm", name);
    try (var channel = FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.READ,
        StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
      channel.truncate(length);
      memory = channel.map(FileChannel.MapMode.READ_WRITE, 0, length, arena);
    }
  }

  MemorySegment memory() {
    return memory;
  }

  /** The handle the agent API takes. */
  String handle() {
    return "shm:/" + path.getFileName();
  }

  @Override
  public void close() throws IOException {
    arena.close();
    Files.deleteIfExists(path);
  }
}
