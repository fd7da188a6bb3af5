package io.kvfleet.control.chaos;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/** A POSIX shared-memory object ({@code /dev/shm/<name>}) made the way an inference worker would, for an agent to register. */
final class SharedBuffer implements AutoCloseable {
  private final Path path;
  private final Arena arena = Arena.ofShared();

  SharedBuffer(String name, long length) {
    this.path = Path.of("/dev/shm", name);
    try (var channel = FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.READ,
        StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
      channel.truncate(length);
      channel.map(FileChannel.MapMode.READ_WRITE, 0, length, arena).fill((byte) 0x5A);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create the shared-memory buffer " + path, e);
    }
  }

  /** The handle the agent API takes. */
  String handle() {
    return "shm:/" + path.getFileName();
  }

  @Override
  public void close() {
    arena.close();
    try {
      Files.deleteIfExists(path);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot remove " + path, e);
    }
  }
}
