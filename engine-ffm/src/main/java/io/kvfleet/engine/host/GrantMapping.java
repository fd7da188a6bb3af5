package io.kvfleet.engine.host;

import io.kvfleet.engine.internal.FileCalls;
import io.kvfleet.engine.internal.Libc;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.util.Map;

/**
 * A peer's grant mapped into this process: opened by name only when the name is a grant's, with
 * {@code O_NOFOLLOW}, checked with {@code fstat} on the open descriptor (a regular file, owned by
 * this process's user, covering the range), and only the range's pages mapped. One owner (the
 * peer's remote region); closing unmaps it.
 */
@SuppressWarnings("restricted") // FFM by design: the mapping is native memory
final class GrantMapping implements AutoCloseable {
  private final String name;
  private final long inode;
  private final long end;
  private final long base;
  private final long mappedLength;
  private final MemorySegment segment;
  private boolean closed;

  private GrantMapping(String name, long inode, long end, long base, long mappedLength,
      MemorySegment segment) {
    this.name = name;
    this.inode = inode;
    this.end = end;
    this.base = base;
    this.mappedLength = mappedLength;
    this.segment = segment;
  }

  /** A mapping, or why the grant cannot be reached. */
  sealed interface Opened {}

  record Mapped(GrantMapping mapping) implements Opened {}

  record Refused(String detail) implements Opened {}

  /** Maps {@code [offset, offset + length)} of grant {@code name}, or says why not. */
  static Opened open(String name, long offset, long length) {
    if (!Grants.isGrantName(name)) {
      return new Refused("\"" + name + "\" is not a kvfleet grant (kvfleet-grant- and 32 hex digits)");
    }
    if (offset < 0 || length <= 0 || offset > Long.MAX_VALUE - length) {
      return new Refused("grant " + name + ": offset " + offset + " length " + length + " is no range");
    }
    Libc.Result fd = FileCalls.open(Grants.path(name).toString(),
        Libc.O_RDWR | FileCalls.O_NOFOLLOW | FileCalls.O_CLOEXEC);
    if (fd.failed()) {
      return new Refused("grant " + name + " cannot be opened (" + fd.describe() + ")"
          + (fd.errno() == Libc.ENOENT ? ": deregistered, or never made" : ""));
    }
    int descriptor = (int) fd.value();
    try {
      FileCalls.StatResult stat = FileCalls.fstat(descriptor);
      if (stat.stat() == null) {
        return new Refused("fstat of grant " + name + " failed: errno " + stat.errno());
      }
      String problem = problem(stat.stat(), offset + length);
      if (problem != null) {
        return new Refused("grant " + name + " " + problem);
      }
      long mapOffset = offset - offset % Libc.pageSize();
      long mapLength = offset + length - mapOffset;
      Libc.Result mapped = Libc.mmap(0, mapLength, Libc.PROT_READ | Libc.PROT_WRITE, Libc.MAP_SHARED,
          descriptor, mapOffset);
      if (mapped.value() == Libc.MAP_FAILED) {
        return new Refused("mmap of grant " + name + " failed (" + mapped.describe() + ")");
      }
      MemorySegment segment = MemorySegment.ofAddress(mapped.value() + (offset - mapOffset))
          .reinterpret(length);
      return new Mapped(new GrantMapping(name, stat.stat().inode(), offset + length, mapped.value(),
          mapLength, segment));
    } finally {
      Libc.close(descriptor);
    }
  }

  /** Why a file is no grant this process may map up to {@code end}, or null when it is one. */
  static String problem(FileCalls.Stat stat, long end) {
    if (!stat.regular()) {
      return "is not a regular file (mode " + Integer.toOctalString(stat.mode()) + ")";
    }
    int self = FileCalls.geteuid();
    if (stat.uid() != self) {
      return "is owned by uid " + stat.uid() + ", not by this process's uid " + self;
    }
    if (stat.size() < end) {
      return "has " + stat.size() + " bytes, the range needs " + end;
    }
    return null;
  }

  String name() {
    return name;
  }

  /** The granted bytes. */
  MemorySegment segment() {
    return segment;
  }

  /**
   * Why the grant no longer covers this mapping (its name is gone or names another file: the
   * region was deregistered; the file shrank under the range), or null while it does.
   */
  String revoked() {
    try {
      Map<String, Object> now = Files.readAttributes(Grants.path(name), "unix:ino,size",
          LinkOption.NOFOLLOW_LINKS);
      if ((long) now.get("ino") != inode) {
        return "grant " + name + " now names another file: the region was deregistered";
      }
      long size = (long) now.get("size");
      return size < end ? "grant " + name + " shrank to " + size + " bytes, the range needs " + end
          : null;
    } catch (IOException e) {
      return "grant " + name + " is gone: the region was deregistered";
    }
  }

  @Override
  public synchronized void close() {
    if (!closed) {
      closed = true;
      Libc.munmap(base, mappedLength);
    }
  }
}
