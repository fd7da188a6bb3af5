package io.kvfleet.control.cluster;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The bus bench's second member, a process of its own: joins ({@code shape name port members
 * [tlsDir]}), answers every request on {@link #ECHO} with its body, prints how long the join took
 * and a ready line, and leaves when its standard input closes.
 */
public final class BusPeer {
  /** The address the peer answers on. */
  static final String ECHO = "kvfleet.bench.bus.echo";

  private BusPeer() {}

  /** Runs the peer. */
  public static void main(String[] args) throws Exception {
    var shape = BusShape.valueOf(args[0]);
    long start = System.nanoTime();
    var vertx = shape.join(args[1], Integer.parseInt(args[2]), List.of(args[3]), args.length > 4 ? Path.of(args[4]) : null)
        .toCompletionStage().toCompletableFuture().get(180, TimeUnit.SECONDS);
    long joined = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
    vertx.eventBus().consumer(ECHO, m -> m.reply(m.body())).completion()
        .toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS);
    System.out.println("kvfleet-bus-peer-join-ms=" + joined);
    System.out.println("kvfleet-bus-peer=ready");
    System.out.flush();
    while (System.in.read() >= 0) {
      // until the bench closes our input
    }
    vertx.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    System.exit(0);
  }
}
