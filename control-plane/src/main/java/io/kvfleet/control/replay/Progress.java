package io.kvfleet.control.replay;

import java.io.PrintStream;

/**
 * A progress line on stderr, redrawn in place with a carriage return at most five times a second,
 * and only when stderr is a terminal (so logs and pipes get no control characters).
 */
public final class Progress {
  private final String what;
  private final long total;
  private final PrintStream out;
  private final long started = System.nanoTime();
  private long lastDrawn;
  private boolean drawn;

  private Progress(String what, long total, PrintStream out) {
    this.what = what;
    this.total = total;
    this.out = out;
  }

  /** A progress line for {@code total} items (0 when unknown), drawn only on a terminal. */
  public static Progress onConsole(String what, long total) {
    return new Progress(what, total, System.console() != null
        ? io.kvfleet.control.console.Terminal.rawErr() : null);
  }

  /** No progress line at all. */
  public static Progress none() {
    return new Progress("", 0, null);
  }

  /** Notes that {@code done} items are done; redraws if it is time. */
  public void update(long done) {
    if (out == null) {
      return;
    }
    long now = System.nanoTime();
    if (now - lastDrawn < 200_000_000L) {
      return;
    }
    lastDrawn = now;
    drawn = true;
    double seconds = Math.max(1e-9, (now - started) / 1e9);
    String share = total > 0 ? String.format(" / %,d (%3d%%)", total, Math.min(100, done * 100 / total)) : "";
    out.printf("\r%s %,d%s  %,.0f/s   ", what, done, share, done / seconds);
    out.flush();
  }

  /** Ends the line, if one was drawn. */
  public void done() {
    if (out != null && drawn) {
      out.print("\r\033[K");
      out.flush();
    }
  }
}
