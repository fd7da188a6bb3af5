package io.kvfleet.control.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kvfleet.control.KvfleetException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.List;
import org.jgroups.protocols.TCP;
import org.jgroups.protocols.TCPPING;
import org.jgroups.stack.Protocol;
import org.jgroups.util.TLSClientAuth;
import org.junit.jupiter.api.Test;

class MembershipStackTest {
  private static final List<InetSocketAddress> CONTACTS = List.of(InetSocketAddress.createUnresolved("127.0.0.1", 7800));

  @Test
  void theTransportBindsTheClusterHostFromTheClusterPortAndTheStackOpensNoOtherSocket() throws Exception {
    var host = InetAddress.getByName("127.0.0.1");
    var stack = MembershipStack.of(host, 7800, CONTACTS, BusSecurity.plaintext());

    var transport = (TCP) stack.getFirst();
    assertThat(transport.getBindAddress()).isEqualTo(host);
    assertThat(transport.getBindPort()).isEqualTo(7800);
    assertThat(transport.getPortRange()).isEqualTo(ClusteredVertx.PORT_COUNT - 1);
    assertThat(transport.tls().enabled()).isFalse();
    assertThat(stack).extracting(Protocol::getName).doesNotContain("FD_SOCK", "FD_SOCK2", "MPING", "PING", "UDP")
        .contains("LoneMemberPing", "FD_ALL3", "VERIFY_SUSPECT2", "MERGE3", "GMS");
  }

  @Test
  void theFleetsCertificatesTurnOnTlsThatRequiresThePeersCertificate() {
    var closed = new BusSecurity.MutualTls(Path.of("member.p12"), Path.of("trust.p12"), "secret");

    var transport = (TCP) MembershipStack.of(InetAddress.getLoopbackAddress(), 7800, CONTACTS, closed).getFirst();

    assertThat(transport.tls().enabled()).isTrue();
    assertThat(transport.tls().getClientAuth()).isEqualTo(TLSClientAuth.NEED);
    assertThat(transport.tls().getKeystorePath()).isEqualTo("member.p12");
    assertThat(transport.tls().getTruststorePath()).isEqualTo("trust.p12");
  }

  @Test
  void discoveryContactsExactlyTheGivenMembers() {
    var stack = MembershipStack.of(InetAddress.getLoopbackAddress(), 7800,
        ClusterMembers.contacts(List.of("127.0.0.1:7801-7802"), 7800), BusSecurity.plaintext());

    var discovery = (TCPPING) stack.get(1);
    assertThat(discovery.getInitialHosts()).extracting(Object::toString)
        .containsExactly("127.0.0.1:7801", "127.0.0.1:7802");
    assertThat(discovery.getPortRange()).isZero();
  }

  @Test
  void aMemberThatDoesNotResolveIsABadInputThatNamesIt() {
    var unknown = List.of(InetSocketAddress.createUnresolved("no-such-member.invalid", 7800));

    assertThatThrownBy(() -> MembershipStack.of(InetAddress.getLoopbackAddress(), 7800, unknown, BusSecurity.plaintext()))
        .isInstanceOf(KvfleetException.class)
        .hasMessage("--cluster-members: cannot resolve no-such-member.invalid");
  }
}
