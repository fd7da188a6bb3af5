package io.kvfleet.control.console;

import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * Standard output and error with a terminal's control characters escaped. What kvfleet prints carries strings
 * that any writer to Kafka chose (a producer, a reason, a host), and a terminal obeys an escape sequence in them: it
 * can retitle the window, recolour or hide text, or move the cursor back over a line ({@code \r}, erase line) to
 * wipe the {@code UNAUTHENTICATED} mark that {@code tail --trust} put before a forged event. Every C0 control but
 * newline and tab, DEL and every C1 control is printed as {@code \xNN} instead. A line break inside one event's line
 * is escaped where the line is made ({@link EventLine}).
 */
public final class Terminal {
  private static volatile PrintStream rawErr = System.err;

  private Terminal() {}

  /** Escapes the process's standard output and error from now on; once, at start. */
  public static void install() {
    rawErr = System.err;
    System.setOut(escaping(new FileStream(System.out)));
    System.setErr(escaping(new FileStream(System.err)));
  }

  /** Standard error as it was before {@link #install}: for a progress line's own carriage return. */
  public static PrintStream rawErr() {
    return rawErr;
  }

  /** A UTF-8 print stream to {@code out} that escapes control characters. */
  public static PrintStream escaping(OutputStream out) {
    return new PrintStream(new Escaping(out), true, StandardCharsets.UTF_8);
  }

  /** {@code out} as a stream whose close leaves it open: the process's own streams stay open. */
  private static final class FileStream extends FilterOutputStream {
    FileStream(OutputStream out) {
      super(out);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      out.write(b, off, len);
    }

    @Override
    public void close() throws IOException {
      out.flush();
    }
  }

  /** Escapes bytes: UTF-8 never has a byte below 0x80 inside a character, and C1 controls are 0xC2 0x80-0x9F. */
  static final class Escaping extends FilterOutputStream {
    private boolean afterC2;

    Escaping(OutputStream out) {
      super(out);
    }

    @Override
    public void write(int b) throws IOException {
      b &= 0xff;
      if (afterC2) {
        afterC2 = false;
        if (b >= 0x80 && b <= 0x9f) {
          escape(b);
          return;
        }
        out.write(0xc2);
      }
      if (b == 0xc2) {
        afterC2 = true;
      } else if ((b < 0x20 && b != '\n' && b != '\t') || b == 0x7f) {
        escape(b);
      } else {
        out.write(b);
      }
    }

    @Override
    public void write(byte[] bytes, int off, int len) throws IOException {
      int plain = off;
      for (int i = off; i < off + len; i++) {
        int b = bytes[i] & 0xff;
        if (afterC2 || b == 0xc2 || (b < 0x20 && b != '\n' && b != '\t') || b == 0x7f) {
          out.write(bytes, plain, i - plain);
          write(b);
          plain = i + 1;
        }
      }
      out.write(bytes, plain, off + len - plain);
    }

    private void escape(int b) throws IOException {
      out.write(String.format("\\x%02x", b).getBytes(StandardCharsets.US_ASCII));
    }
  }
}
