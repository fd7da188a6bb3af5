package io.kvfleet.control.cli;

import io.kvfleet.control.cluster.ClusteredVertx;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.UnknownHostException;

/**
 * The network devices a node's UCX may listen on when none are given: on a loopback cluster host
 * (one machine) only the loopback device, so the data plane listens no wider than the EventBus;
 * elsewhere UCX's own choice, every device (RDMA ones included), unless UCX_NET_DEVICES says.
 */
final class DataDevices {
  private DataDevices() {}

  /** UCX_NET_DEVICES for a node whose cluster host is {@code host}; empty keeps UCX's default or the environment's. */
  static String forClusterHost(String host) {
    if (System.getenv("UCX_NET_DEVICES") != null) {
      return "";
    }
    try {
      InetAddress address = InetAddress.getByName(ClusteredVertx.address(host));
      if (!address.isLoopbackAddress()) {
        return "";
      }
      NetworkInterface device = NetworkInterface.getByInetAddress(address);
      return device == null ? "" : device.getName();
    } catch (UnknownHostException | SocketException e) {
      return ""; // the cluster's own check names the bad host
    }
  }
}
