package io.kvfleet.control.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.jgroups.JChannel;
import org.jgroups.MergeView;
import org.jgroups.Receiver;
import org.jgroups.View;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Members of the real JGroups stack ({@link MembershipStack}) on loopback, each cluster with a name
 * and ports of its own: a member whose contacts all refuse founds its view without waiting the join
 * timeout, a contact that accepts but never answers keeps the wait, and members that start together
 * or restart beside a running one end in one view that no merge had to heal.
 */
class LoneMemberIT {
  private final List<Member> members = new CopyOnWriteArrayList<>();

  @AfterEach
  void close() {
    members.forEach(m -> m.channel.close());
  }

  @Test
  void aMemberWhoseContactsAllRefuseFoundsItsViewWithoutWaitingTheJoinTimeout() throws Exception {
    int base = FreePorts.clusterBase();

    long start = System.nanoTime();
    var member = start(cluster(), base, base);
    long tookMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);

    // Without LoneMemberPing it cannot be faster than the join timeout: GMS waits all of it for an answer.
    assertThat(tookMs).as("connect took %d ms", tookMs).isLessThan(MembershipStack.JOIN_TIMEOUT.toMillis());
    assertThat(member.view().size()).isEqualTo(1);
    assertThat(member.discovery().foundedAlone()).isTrue();
  }

  @Test
  void aContactThatAcceptsButNeverAnswersKeepsTheWholeJoinTimeout() throws Exception {
    int base = FreePorts.clusterBase();
    // A paused member: the kernel accepts its connections, nobody reads them.
    try (var paused = new ServerSocket(base + 5, 50, InetAddress.getLoopbackAddress())) {
      long start = System.nanoTime();
      var member = start(cluster(), base, base);
      long tookMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);

      assertThat(member.discovery().foundedAlone()).isFalse();
      assertThat(member.view().size()).isEqualTo(1);
      assertThat(tookMs).as("connect took %d ms", tookMs).isGreaterThanOrEqualTo(MembershipStack.JOIN_TIMEOUT.toMillis());
    }
  }

  @Test
  void aClosedMemberAloneFoundsItsViewAtOnceAndTheNextJoinsItOverTls(@TempDir Path work) throws Exception {
    var fleet = FleetCertificates.newFleet(work, "fleet");
    String cluster = cluster();
    int base = FreePorts.clusterBase();

    var firstSecurity = BusSecurity.fromDirectory(fleet.member("first"));
    var secondSecurity = BusSecurity.fromDirectory(fleet.member("second"));

    long start = System.nanoTime();
    var first = start(cluster, base, base, firstSecurity);
    long tookMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
    var second = start(cluster, base, base + 1, secondSecurity);
    awaitOneView(List.of(first, second), 2);

    assertThat(tookMs).as("connect took %d ms", tookMs).isLessThan(MembershipStack.JOIN_TIMEOUT.toMillis());
    assertThat(first.discovery().foundedAlone()).isTrue();
    assertThat(second.discovery().foundedAlone()).isFalse();
    assertThat(second.views).noneMatch(v -> v instanceof MergeView).first().matches(v -> v.size() == 2);
  }

  @Test
  void membersThatStartTogetherEndInOneViewThatNoMergeHealed() throws Exception {
    // Started at once and a few milliseconds apart: the second may reach the first between its
    // decision to found the view and that view, the race LoneMemberPing's repeated discovery covers.
    for (int gapMs : new int[] {0, 1, 3, 10, 30}) {
      String cluster = cluster();
      int base = FreePorts.clusterBase();
      List<Member> round = startTogether(cluster, base, 3, gapMs);

      awaitOneView(round, 3);
      for (var member : round) {
        assertThat(member.views).as("gap %d ms: %s", gapMs, member.views).noneMatch(v -> v instanceof MergeView);
      }
      round.forEach(m -> m.channel.close());
    }
  }

  @Test
  void aMemberThatRestartsBesideARunningOneJoinsItsView() throws Exception {
    String cluster = cluster();
    int base = FreePorts.clusterBase();
    var first = start(cluster, base, base);
    var second = start(cluster, base, base + 1);
    awaitOneView(List.of(first, second), 2);

    first.channel.close(); // a coordinator that stops while its agents stay up
    members.remove(first);
    awaitOneView(List.of(second), 1);
    var restarted = start(cluster, base, base);
    awaitOneView(List.of(second, restarted), 2);

    assertThat(restarted.discovery().foundedAlone()).isFalse();
    assertThat(restarted.views).noneMatch(v -> v instanceof MergeView).first().matches(v -> v.size() == 2);
    assertThat(second.views).noneMatch(v -> v instanceof MergeView);
  }

  private List<Member> startTogether(String cluster, int base, int count, int gapMs) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(count);
    try {
      List<Future<Member>> started = new ArrayList<>();
      for (int i = 0; i < count; i++) {
        int port = base + i;
        started.add(pool.submit(() -> start(cluster, base, port)));
        Thread.sleep(gapMs);
      }
      List<Member> round = new ArrayList<>();
      for (var member : started) {
        round.add(member.get(60, TimeUnit.SECONDS));
      }
      return round;
    } finally {
      pool.shutdownNow();
    }
  }

  /** Waits until every member's view holds {@code size} members and all are the same view. */
  private static void awaitOneView(List<Member> round, int size) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (System.nanoTime() < deadline) {
      View first = round.getFirst().view();
      if (first.size() == size && round.stream().allMatch(m -> m.view().equals(first))) {
        return;
      }
      Thread.sleep(50);
    }
    fail("no single view of %d members within 60 s: %s", size, round.stream().map(m -> m.views).toList());
  }

  private Member start(String cluster, int base, int port) throws Exception {
    return start(cluster, base, port, BusSecurity.plaintext());
  }

  private Member start(String cluster, int base, int port, BusSecurity security) throws Exception {
    var contacts = ClusterMembers.contacts(List.of(FreePorts.members(base)), base);
    var channel = MembershipStack.channel(InetAddress.getLoopbackAddress(), port, contacts, security);
    var member = new Member(channel, new CopyOnWriteArrayList<>());
    channel.setReceiver(new Receiver() {
      @Override
      public void viewAccepted(View view) {
        member.views.add(view);
      }
    });
    members.add(member);
    channel.connect(cluster);
    return member;
  }

  private static String cluster() {
    return "lone-" + UUID.randomUUID().toString().substring(0, 8);
  }

  private record Member(JChannel channel, List<View> views) {
    View view() {
      return channel.getView();
    }

    LoneMemberPing discovery() {
      return channel.getProtocolStack().findProtocol(LoneMemberPing.class);
    }
  }
}
