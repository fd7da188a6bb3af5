package io.kvfleet.events;

import java.time.Instant;
import java.util.List;

/** One realistic event of every type, and the parts they are made of. */
public final class Samples {
  private Samples() {}

  public static final Instant T0 = Instant.parse("2025-06-01T12:00:00.123456789Z");

  /** A sample of {@code type}; a new type does not compile until it has one. */
  public static FleetEvent of(EventType type) {
    return switch (type) {
      case PEER_JOINED -> new PeerJoined("prefill-0", 3, "10.0.0.7", "AAECAwQ=", List.of(ucx(), host()));
      case PEER_HEARTBEAT -> new PeerHeartbeat("prefill-0", 3, 5_000);
      case PEER_LOST -> new PeerLost("prefill-0", 3, ReasonCodes.LEASE_EXPIRED, 1_748_779_200_000L);
      case PEER_LEFT -> new PeerLeft("prefill-0", 3, ReasonCodes.SHUTDOWN);
      case REGION_REGISTERED -> new RegionRegistered("prefill-0", 3, kv("kv-L0"), "ucx", "cmtleS0w");
      case REGISTRATION_FAILED -> stateTensorFailure("prefill-0", 3);
      case REGION_SKIPPED ->
          new RegionSkipped("prefill-0", 3, region("aux-2", RegionKind.AUX, 0, 0), "zero length");
      case REGION_DEREGISTERED ->
          new RegionDeregistered("prefill-0", 3, "kv-L0", "ucx", ReasonCodes.SHUTDOWN);
      case REGISTRATION_DECISION ->
          new RegistrationDecision(
              "prefill-0", 3, "state_data", "FALLBACK_STAGED", "state tensors go through host staging");
      case MODEL_LAYOUT_DECLARED -> layout("prefill-0", 3);
      case TRANSFER_REQUESTED -> request("xfer-1", "prefill-0", 3, "decode-1", 2);
      case TRANSFER_REJECTED ->
          new TransferRejected("xfer-1", "prefill-0", ReasonCodes.STALE_EPOCH, "decode-1 is at epoch 4");
      case TRANSFER_DISPATCHED -> new TransferDispatched("xfer-1", "prefill-0", "coordinator-0");
      case TRANSFER_COMPLETED ->
          new TransferCompleted("xfer-1", "prefill-0", 65_536, 182_000, "ucx/tcp", "",
              List.of(new PartOutcome("kv", 2, 65_536 - 512, "1a2b3c4d"), new PartOutcome("aux", 1, 512, "")));
      case TRANSFER_FAILED ->
          new TransferFailed("xfer-1", "prefill-0", ReasonCodes.TRANSPORT_ERROR, -25, "UCS_ERR_ENDPOINT_TIMEOUT");
      case TRANSFER_TIMED_OUT -> new TransferTimedOut("xfer-1", "prefill-0", 1_748_779_230_000L);
    };
  }

  /** A sample of {@code type} at its newest schema version (a request transfer for the requested type). */
  public static FleetEvent newest(EventType type) {
    return type == EventType.TRANSFER_REQUESTED ? requestTransfer("xfer-1", "prefill-0", 3, "decode-1", 2) : of(type);
  }

  /** An envelope around {@code event}, written by its node at epoch 3. */
  public static Envelope envelope(FleetEvent event) {
    return new Envelope(
        "evt-" + event.wireType(), "prefill-0", 3, 17, T0, "batch-7", event);
  }

  public static BackendCapability ucx() {
    return new BackendCapability(
        "ucx", true, "1.18.0", List.of(MemoryType.DRAM), List.of("tcp", "sysv"), "built without CUDA");
  }

  public static BackendCapability host() {
    return new BackendCapability("host", true, "", List.of(MemoryType.DRAM), List.of("memcpy"), "");
  }

  public static RegionSpec kv(String regionId) {
    return region(regionId, RegionKind.KV, 1 << 20, 4096);
  }

  public static RegionSpec region(String regionId, RegionKind kind, long length, long itemSize) {
    return new RegionSpec(
        regionId, kind, MemoryType.VRAM, 0, 0x7f00_0000_0000L, length, itemSize, "kv_data", 0);
  }

  public static RegistrationFailed stateTensorFailure(String nodeId, long epoch) {
    return new RegistrationFailed(
        nodeId, epoch, region("state-conv-3", RegionKind.STATE, 1 << 16, 0), "ucx",
        ReasonCodes.MEMORY_TYPE_UNSUPPORTED, "this UCX has no CUDA memory domain; transports: tcp, sysv",
        -4, "UCS_ERR_UNSUPPORTED", ucx(),
        "rebuild UCX with --with-cuda or choose the FALLBACK_STAGED policy");
  }

  public static TransferRequested request(
      String transferId, String source, long sourceEpoch, String destination, long destinationEpoch) {
    return new TransferRequested(
        transferId, source, sourceEpoch, "kv-L0", destination, destinationEpoch, "kv-L0",
        TransferOp.WRITE, List.of(new ByteRange(0, 4096, 32_768), new ByteRange(32_768, 65_536, 32_768)),
        1_748_779_230_000L, true);
  }

  /** A hybrid-model layout: two KV layers, one conv state layer, aux. */
  public static ModelLayoutDeclared layout(String nodeId, long epoch) {
    return new ModelLayoutDeclared(nodeId, epoch, "qwen3-next", 0, 1, List.of(
        new LayoutComponent("kv", RegionKind.KV, MemoryType.VRAM, 2, 16_384, 16, "bfloat16", List.of(3, 7),
            List.of("kv-0", "kv-1")),
        new LayoutComponent("conv", RegionKind.STATE, MemoryType.VRAM, 1, 8_192, 1, "bfloat16", List.of(0),
            List.of("conv-0")),
        new LayoutComponent("aux", RegionKind.AUX, MemoryType.DRAM, 1, 512, 1, "int32", List.of(0),
            List.of("aux-0"))));
  }

  /** A request transfer of two KV pages and one conv and aux slot. */
  public static TransferRequested requestTransfer(
      String transferId, String source, long sourceEpoch, String destination, long destinationEpoch) {
    return TransferRequested.ofRequest(transferId, "room-1", source, sourceEpoch, destination, destinationEpoch,
        List.of(new RequestPart("kv", List.of(0, 1), List.of(2, 3)), new RequestPart("conv", List.of(1), List.of(0)),
            new RequestPart("aux", List.of(1), List.of(0))),
        List.of(), 1_748_779_230_000L, true);
  }
}
