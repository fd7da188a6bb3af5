package io.kvfleet.control.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.BindException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.jgroups.JChannel;
import org.jgroups.protocols.TP;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Members' transports ({@link FleetTcp} in {@link MembershipStack}) binding a fleet's cluster ports
 * on loopback: several at the same instant, as a fleet's processes do when they start side by side;
 * one over TLS past ports others hold; one whose every port is held.
 */
class FleetTcpIT {
  /** More members than a fleet has, so that two of them reach for the same port often. */
  private static final int MEMBERS = 6;
  /** JGroups' own walk of the range failed within 21 to 142 rounds (five runs). */
  private static final int ROUNDS = 500;

  @Test
  void membersThatBindTheirRangeAtOnceEachGetAPortOfIt() throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(MEMBERS);
    try {
      for (int round = 0; round < ROUNDS; round++) {
        int base = FreePorts.clusterBase();
        List<JChannel> members = new ArrayList<>();
        List<String> failures = new ArrayList<>();
        for (var member : startTogether(pool, base)) {
          try {
            members.add(member.get(60, TimeUnit.SECONDS));
          } catch (ExecutionException e) {
            failures.add(e.getCause().toString());
          }
        }
        int taken = taken(base);
        members.forEach(FleetTcpIT::close);

        assertThat(failures).as("round %d, range from %d", round, base).isEmpty();
        assertThat(taken).as("round %d: ports of the range held", round).isEqualTo(MEMBERS);
      }
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void aClosedMemberBindsTheFirstPortNobodyHoldsAndKeepsItsRange(@TempDir Path work) throws Exception {
    var fleet = FleetCertificates.newFleet(work, "fleet");
    int base = FreePorts.clusterBase();
    var loopback = InetAddress.getLoopbackAddress();
    try (var first = new ServerSocket(base, 1, loopback); var second = new ServerSocket(base + 1, 1, loopback)) {
      var member = MembershipStack.channel(loopback, base, List.of(),
          BusSecurity.fromDirectory(fleet.member("member")));
      TP transport = member.getProtocolStack().getTransport();
      transport.start();
      try {
        assertThat(held(base + 2)).isTrue();
        assertThat(taken(base)).isEqualTo(3);
        assertThat(transport.getBindPort()).isEqualTo(base);
        assertThat(transport.getPortRange()).isEqualTo(ClusteredVertx.PORT_COUNT - 1);
      } finally {
        close(member);
      }
    }
  }

  @Test
  void aMemberWhoseWholeRangeIsHeldNamesTheRange() throws Exception {
    int base = FreePorts.clusterBase();
    var loopback = InetAddress.getLoopbackAddress();
    List<ServerSocket> held = new ArrayList<>();
    try {
      for (int port = base; port < base + ClusteredVertx.PORT_COUNT; port++) {
        held.add(new ServerSocket(port, 1, loopback));
      }
      var member = MembershipStack.channel(loopback, base, List.of(), BusSecurity.plaintext());
      try {
        assertThatThrownBy(() -> member.getProtocolStack().getTransport().start()).isInstanceOf(BindException.class)
            .hasMessage("No available port to bind to in range [%d .. %d]", base, base + ClusteredVertx.PORT_COUNT - 1);
      } finally {
        member.close();
      }
    } finally {
      for (var socket : held) {
        socket.close();
      }
    }
  }

  /** Each member's transport starts (binds) the moment all are built. */
  private static List<Future<JChannel>> startTogether(ExecutorService pool, int base) {
    var together = new CyclicBarrier(MEMBERS);
    List<Future<JChannel>> started = new ArrayList<>();
    for (int i = 0; i < MEMBERS; i++) {
      started.add(pool.submit(() -> {
        var channel = MembershipStack.channel(InetAddress.getLoopbackAddress(), base, List.of(),
            BusSecurity.plaintext());
        together.await();
        try {
          channel.getProtocolStack().getTransport().start();
        } catch (Exception e) {
          channel.close();
          throw e;
        }
        return channel;
      }));
    }
    return started;
  }

  /** How many ports of the range from {@code base} someone listens on. */
  private static int taken(int base) {
    return (int) java.util.stream.IntStream.range(base, base + ClusteredVertx.PORT_COUNT).filter(FleetTcpIT::held).count();
  }

  /** Whether someone listens on {@code port} of loopback. */
  private static boolean held(int port) {
    try (var probe = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
      return probe.getLocalPort() != port;
    } catch (IOException e) {
      return true;
    }
  }

  private static void close(JChannel member) {
    member.getProtocolStack().getTransport().stop();
    member.close();
  }
}
