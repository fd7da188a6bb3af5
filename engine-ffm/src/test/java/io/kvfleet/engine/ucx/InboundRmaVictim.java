package io.kvfleet.engine.ucx;

import io.kvfleet.engine.Engine;
import io.kvfleet.engine.EngineConfig;
import io.kvfleet.engine.RegionRequest;
import io.kvfleet.engine.Registration;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.HexFormat;

/**
 * The target process of {@link InboundRmaAttackTest}'s cross-process case: an engine with UCX's default transports
 * that registered one buffer, and a buffer it never registered. Prints its worker address, the registered buffer's
 * packed rkey (what {@code peer.joined} and {@code region.registered} publish) and the unregistered buffer's
 * address; on each line "count" it prints how many bytes of that buffer are 9; it ends at end of input.
 */
@SuppressWarnings("restricted")
final class InboundRmaVictim {
  private InboundRmaVictim() {}

  public static void main(String[] args) throws Exception {
    long length = Long.parseLong(args[0]);
    try (Engine engine = Engine.open(EngineConfig.defaults().withBackends("ucx").withName("victim"))) {
      Registration registered = engine.register(RegionRequest.of(engine.allocate("kv", length)))
          .registration("ucx").orElseThrow();
      MemorySegment unregistered = Arena.global().allocate(length, 4096);
      var hex = HexFormat.of();
      System.out.println("victim " + hex.formatHex(engine.address("ucx").bytes()) + " "
          + hex.formatHex(registered.remoteKey().packed()) + " " + unregistered.address());
      System.out.flush();
      var in = new BufferedReader(new InputStreamReader(System.in));
      for (String line = in.readLine(); line != null; line = in.readLine()) {
        long nines = 0;
        for (byte b : unregistered.toArray(ValueLayout.JAVA_BYTE)) {
          nines += b == 9 ? 1 : 0;
        }
        System.out.println("count " + nines);
        System.out.flush();
      }
    }
  }
}
