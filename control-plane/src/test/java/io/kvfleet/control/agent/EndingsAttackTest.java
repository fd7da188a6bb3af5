package io.kvfleet.control.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import io.kvfleet.control.dataplane.DataPlane;
import io.kvfleet.control.dataplane.Fence;
import io.kvfleet.control.kafka.EventPublisher;
import io.kvfleet.control.protocol.Landings;
import io.kvfleet.control.protocol.OrderSignature;
import io.kvfleet.control.protocol.TransferOrder;
import io.kvfleet.events.BackendCapability;
import io.kvfleet.events.ByteRange;
import io.kvfleet.events.Envelope;
import io.kvfleet.events.EventType;
import io.kvfleet.events.FleetEvent;
import io.kvfleet.events.MemoryType;
import io.kvfleet.events.ReasonCodes;
import io.kvfleet.events.RegionKind;
import io.kvfleet.events.RegionSpec;
import io.kvfleet.events.TransferCompleted;
import io.kvfleet.events.TransferDispatched;
import io.kvfleet.events.TransferFailed;
import io.kvfleet.events.TransferOp;
import io.kvfleet.events.TransferRejected;
import io.kvfleet.events.TransferRequested;
import io.kvfleet.events.TransferTimedOut;
import io.kvfleet.events.codec.Decoded;
import io.kvfleet.events.codec.EnvelopeDeserializer;
import io.kvfleet.events.codec.EnvelopeSerializer;
import io.kvfleet.events.codec.EventCodec;
import io.kvfleet.events.trust.FleetKey;
import io.kvfleet.events.trust.KeyBinding;
import io.kvfleet.events.trust.Role;
import io.kvfleet.events.trust.SignedDocument;
import io.kvfleet.events.trust.Signing;
import io.kvfleet.events.trust.TrustFile;
import io.kvfleet.events.trust.Verifier;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Attacks on the agent's reading of the fleet's endings ({@link OrderLog.Orders}, {@link FleetEndings},
 * {@link OrderRunner}): records that could stop the reader, lying headers, forged endings and requests,
 * and interleavings in which a zombie coordinator's dispatch runs after the fleet ended its transfer.
 */
class EndingsAttackTest {
  private static final String TOPIC = "kvfleet.transfers";
  private static final String NODE = "prefill-0";
  private static final FleetKey COORDINATOR = FleetKey.generate("coordinator-0");
  private static final FleetKey ZOMBIE = FleetKey.generate("coordinator-1");
  private static final FleetKey ROUTER = FleetKey.generate("router-0");
  private static final FleetKey OWN = FleetKey.generate("prefill-0");
  private static final FleetKey DECODE = FleetKey.generate("decode-0");
  private static final FleetKey STRANGER = FleetKey.generate("coordinator-0"); // same id, not in the trust file
  private static final TrustFile TRUST = TrustFile.of(
      new KeyBinding("coordinator-0", COORDINATOR.publicKey(), Role.COORDINATOR, Set.of("coordinator-0"), Set.of()),
      new KeyBinding("coordinator-1", ZOMBIE.publicKey(), Role.COORDINATOR, Set.of("coordinator-1"), Set.of()),
      new KeyBinding("router-0", ROUTER.publicKey(), Role.ROUTER, Set.of("router-0"), Set.of()),
      new KeyBinding("prefill-0", OWN.publicKey(), Role.NODE, Set.of("prefill-0"), Set.of("prefill-0")),
      new KeyBinding("decode-0", DECODE.publicKey(), Role.NODE, Set.of("decode-0"), Set.of("decode-0")));
  private static final String REQUESTED = EventType.TRANSFER_REQUESTED.wireName();
  private static final String DISPATCHED = EventType.TRANSFER_DISPATCHED.wireName();
  private static final String FAILED = EventType.TRANSFER_FAILED.wireName();

  private final EventCodec codec = new EventCodec();
  private final AtomicLong sequence = new AtomicLong();
  private final List<Agent> agents = new ArrayList<>();

  /** One record as Kafka hands it to the deserializer. */
  private record Rec(Headers headers, byte[] value, String eventId) {}

  @AfterEach
  void closeAgents() {
    agents.forEach(Agent::close);
  }

  // ---------------------------------------------------------------------------------------------
  // A zombie's dispatch after the fleet ended its transfer stays refused (each of these ran it before)
  // ---------------------------------------------------------------------------------------------

  /**
   * Log order: the fleet ends t-1, a paused coordinator's dispatch of it lands, then a request for
   * t-1 (a new life, say). Kafka deserializes a whole poll before the handler sees any record, and
   * the order runs later still (a worker): the new life's orders run, the zombie's does not.
   */
  @Test
  void aDispatchReadAfterTheEndingStaysEndedThoughALaterRequestComesInTheSamePoll() {
    var agent = agent(Signing.off());
    var first = request("t-1", 4096);
    var zombie = dispatch("coordinator-1", first, "request-0", null);
    var ending = plainRecord("coordinator-0", new TransferFailed("t-1", NODE, ReasonCodes.PEER_LOST, 0, "decode-0 lost"));
    var again = plainRecord("router-0", request("t-1", 8192));

    agent.poll(ending, plainRecord("coordinator-1", zombie), again,
        plainRecord("coordinator-0", dispatch("coordinator-0", request("t-1", 8192), again.eventId(), null)));

    agent.awaitRan("t-1/" + again.eventId());
    assertThat(agent.ran).as("the zombie's dispatch came after the ending in the log").doesNotContain("t-1/request-0");
  }

  /**
   * The router retries the request the fleet failed (the same request, a new record). The fold
   * keeps the first request ("requested again"), so this is no new life: the zombie coordinator's
   * dispatch of the first request stays refused.
   */
  @Test
  void aRetryOfTheEndedRequestLiftsNoEnding() {
    var agent = agent(Signing.off());
    var first = request("t-1", 4096);

    agent.poll(plainRecord("coordinator-0", new TransferFailed("t-1", NODE, ReasonCodes.PEER_LOST, 0, "")));
    agent.poll(plainRecord("router-0", first));
    agent.poll(plainRecord("coordinator-1", dispatch("coordinator-1", first, "request-0", null)));
    agent.poll(plainRecord("coordinator-0", dispatch("coordinator-0", request("t-9", 4096), "request-9", null)));

    agent.awaitRan("t-9/request-9");
    assertThat(agent.ran).doesNotContain("t-1/request-0");
  }

  /** A different request under the ended id is rejected DUPLICATE_TRANSFER (no new life): it lifts no ending. */
  @Test
  void aDuplicateRequestUnderAnEndedIdLiftsNoEnding() {
    var agent = agent(Signing.off());
    var first = request("t-1", 4096);

    agent.poll(plainRecord("coordinator-0", new TransferTimedOut("t-1", NODE, first.deadlineMillis())));
    agent.poll(plainRecord("router-0", request("t-1", 65536)),
        plainRecord("coordinator-0", new TransferRejected("t-1", NODE, ReasonCodes.DUPLICATE_TRANSFER, "")));
    agent.poll(plainRecord("coordinator-1", dispatch("coordinator-1", first, "request-0", null)));
    agent.poll(plainRecord("coordinator-0", dispatch("coordinator-0", request("t-9", 4096), "request-9", null)));

    agent.awaitRan("t-9/request-9");
    assertThat(agent.ran).doesNotContain("t-1/request-0");
  }

  /**
   * Signed fleet: anyone who reaches Kafka writes an unsigned request for t-1 (only routers may
   * write requests, and the fold refuses it); it does not lift the coordinator's signed ending.
   */
  @Test
  void inASignedFleetAnUnsignedRequestLiftsNoEnding() {
    var agent = agent(Signing.of(OWN, TRUST));
    var first = request("t-1", 4096);

    agent.poll(signedRecord("coordinator-0", new TransferFailed("t-1", NODE, ReasonCodes.PEER_LOST, 0, ""), COORDINATOR));
    assertThat(agent.endings.of("t-1", "")).isPresent();
    agent.poll(plainRecord("router-0", request("t-1", 8192))); // forged: no signature
    agent.poll(signedRecord("coordinator-1", dispatch("coordinator-1", first, "request-0", ZOMBIE), ZOMBIE));
    agent.poll(signedRecord("coordinator-0", dispatch("coordinator-0", request("t-9", 4096), "request-9", COORDINATOR),
        COORDINATOR));

    agent.awaitRan("t-9/request-9");
    assertThat(agent.ran).doesNotContain("t-1/request-0");
  }

  /**
   * Signed fleet: a copy of the router's own signed request record (the one the zombie's dispatch
   * names) written again after the ending; its signature checks and the fold keeps the first
   * request: no new life.
   */
  @Test
  void inASignedFleetAReplayOfTheEndedRequestsRecordLiftsNoEnding() {
    var agent = agent(Signing.of(OWN, TRUST));
    var first = request("t-1", 4096);
    var original = signedRecord("router-0", first, ROUTER);

    agent.poll(original); // skipped: nothing held yet
    agent.poll(signedRecord("coordinator-0", new TransferFailed("t-1", NODE, ReasonCodes.PEER_LOST, 0, ""), COORDINATOR));
    agent.poll(new Rec(copy(original.headers()), original.value().clone(), original.eventId()));
    agent.poll(signedRecord("coordinator-1", dispatch("coordinator-1", first, original.eventId(), ZOMBIE), ZOMBIE));
    agent.poll(signedRecord("coordinator-0", dispatch("coordinator-0", request("t-9", 4096), "request-9", COORDINATOR),
        COORDINATOR));

    agent.awaitRan("t-9/request-9");
    assertThat(agent.ran).doesNotContain("t-1/" + original.eventId());
  }

  /**
   * A record without the type header (an older coordinator's: the agents are upgraded first) is
   * scanned for type names; a failure whose detail or id names the request type is still read as
   * the ending it is (the scan may let too many through, never too few).
   */
  @Test
  void aHeaderlessEndingThatNamesTheRequestTypeIsStillRead() {
    var endings = new FleetEndings();
    var reader = new OrderLog.Orders(NODE, Verifier.off(), endings);

    reader.deserialize(TOPIC, null, encode("coordinator-0", new TransferFailed("t-1", NODE,
        ReasonCodes.PEER_LOST, 0, "decode-0 lost while answering " + REQUESTED)));
    reader.deserialize(TOPIC, new RecordHeaders(), encode("coordinator-0",
        new TransferTimedOut(REQUESTED + "#2", NODE, 1_000)));

    assertThat(endings.of("t-1", "")).as("a failure whose detail names the request type").isPresent();
    assertThat(endings.of(REQUESTED + "#2", "")).as("a time-out whose id names the request type").isPresent();
  }

  // ---------------------------------------------------------------------------------------------
  // Other attacks
  // ---------------------------------------------------------------------------------------------

  /** The same with ids of 300 characters, whose endings were once dropped (RELIABILITY.md, fifth stop). */
  @ParameterizedTest
  @ValueSource(ints = {0, 298})
  void anEndingReadBeforeItsDispatchStopsItAndOneReadMidTransferStopsTheNextPage(int longer) {
    String first = "t-1" + "x".repeat(longer);
    String second = "t-2" + "x".repeat(longer);
    var agent = agent(Signing.off());
    agent.poll(plainRecord("coordinator-0", new TransferRejected(first, NODE, ReasonCodes.PEER_NOT_ALIVE, "")));
    agent.poll(plainRecord("coordinator-1", dispatch("coordinator-1", request(first, 4096), "request-0", null)));

    agent.pagesOf = second;
    agent.poll(plainRecord("coordinator-0", dispatch("coordinator-0", request(second, 4096), "request-2", null)));
    agent.awaitRan(second + "/request-2");
    agent.poll(plainRecord("coordinator-0", new TransferFailed(second, NODE, ReasonCodes.PEER_LOST, 0, "")));
    agent.secondPage.countDown();

    assertThat(agent.awaitPage()).as("the page after the fleet said FAILED")
        .hasValueSatisfying(f -> assertThat(f.reason()).isEqualTo(ReasonCodes.ENDED_BY_FLEET));
    assertThat(agent.ran).containsExactly(second + "/request-2");
  }

  @Test
  void aDuplicatesRejectionStopsNoRunningTransfer() {
    var endings = new FleetEndings();
    var reader = new OrderLog.Orders(NODE, Verifier.off(), endings);

    reader.deserialize(TOPIC, header("io.kvfleet.transfer.rejected"), encode("coordinator-0",
        new TransferRejected("t-1", NODE, ReasonCodes.DUPLICATE_TRANSFER, "")));

    assertThat(endings.of("t-1", "")).isEmpty();
  }

  @Test
  void inASignedFleetNoEndingItsWriterHadNoRightToSayIsNoted() {
    var endings = new FleetEndings();
    var reader = new OrderLog.Orders(NODE, Verifier.against(TRUST), endings);
    var failed = new TransferFailed("t-1", NODE, ReasonCodes.PEER_LOST, 0, "");

    reader.deserialize(TOPIC, header(FAILED), encode("coordinator-0", failed)); // unsigned
    reader.deserialize(TOPIC, header(FAILED), SignedDocument.sign(encode("coordinator-0", failed), STRANGER));
    reader.deserialize(TOPIC, header(FAILED), SignedDocument.sign(encode("router-0", failed), ROUTER));
    reader.deserialize(TOPIC, header(FAILED), SignedDocument.sign(encode("decode-0", failed), DECODE));
    reader.deserialize(TOPIC, header(FAILED), SignedDocument.sign(encode("coordinator-0", failed), ZOMBIE));
    reader.deserialize(TOPIC, header("io.kvfleet.transfer.timed_out"), SignedDocument.sign(encode("prefill-0",
        new TransferTimedOut("t-1", NODE, 1)), OWN));
    reader.deserialize(TOPIC, header(FAILED), SignedDocument.sign(envelopeBytes("prefill-0", 2, failed), OWN));
    byte[] tampered = SignedDocument.sign(encode("coordinator-0", new TransferFailed("t-1", NODE, "PEER_LOSX", 0, "")),
        COORDINATOR);
    replace(tampered, "PEER_LOSX", "PEER_LOST");
    reader.deserialize(TOPIC, header(FAILED), tampered);
    assertThat(endings.any()).isFalse();

    reader.deserialize(TOPIC, header(FAILED), SignedDocument.sign(encode("coordinator-1", failed), ZOMBIE));
    assertThat(endings.of("t-1", "")).contains("transfer.failed PEER_LOST by coordinator-1");
  }

  @Test
  void itsOwnOutcomesOfAnyIncarnationAndOtherNodesEndingsEndNothing() {
    var endings = new FleetEndings();
    var reader = new OrderLog.Orders(NODE, Verifier.off(), endings);

    reader.deserialize(TOPIC, header(FAILED), envelopeBytes(NODE, 7, new TransferFailed("t-1", NODE,
        ReasonCodes.LEASE_UNPROVEN, 0, "")));
    reader.deserialize(TOPIC, header(FAILED), encode("coordinator-0", new TransferFailed("t-1", "prefill-1",
        ReasonCodes.PEER_LOST, 0, "")));
    reader.deserialize(TOPIC, header(FAILED), encode("coordinator-0", new TransferFailed("t-1", NODE + " ",
        ReasonCodes.PEER_LOST, 0, "")));
    assertThat(endings.any()).isFalse();

    // Another node's request lifts no ending of this node's transfer of the same id.
    reader.deserialize(TOPIC, header(FAILED), encode("coordinator-0", new TransferFailed("t-1", NODE,
        ReasonCodes.PEER_LOST, 0, "")));
    reader.deserialize(TOPIC, header(REQUESTED), encode("router-0", new TransferRequested("t-1", "prefill-1", 1,
        "kv", "decode-0", 1, "kv", TransferOp.WRITE, List.of(new ByteRange(0, 0, 4096)), 1, false)));
    assertThat(endings.of("t-1", "")).isPresent();
  }

  @Test
  void lyingDuplicatedAndEmptyTypeHeadersDoNotStopTheReaderNorRunNorEnd() {
    var endings = new FleetEndings();
    var reader = new OrderLog.Orders(NODE, Verifier.off(), endings);
    var plain = new EnvelopeDeserializer();
    byte[] dispatch = encode("coordinator-0", dispatch("coordinator-0", request("t-1", 4096), "r", null));
    byte[] failure = encode("coordinator-0", new TransferFailed("t-2", NODE, ReasonCodes.PEER_LOST, 0, ""));

    // A dispatch under a failure's header: neither run nor noted (the fold refuses it too).
    assertThat(reader.deserialize(TOPIC, header(FAILED), dispatch)).isNull();
    // A failure under a dispatch's header: refused as a mismatch, not noted.
    assertThat(reader.deserialize(TOPIC, header(DISPATCHED), failure)).isInstanceOf(Decoded.Malformed.class);
    // Several ce_type headers: the last decides, as for every other reader.
    var several = header(FAILED).add("ce_type", DISPATCHED.getBytes(StandardCharsets.UTF_8));
    assertThat(reader.deserialize(TOPIC, several, dispatch)).isInstanceOf(Decoded.Event.class);
    assertThat(plain.deserialize(TOPIC, several, dispatch)).isInstanceOf(Decoded.Event.class);
    var lastNull = header(DISPATCHED).add("ce_type", null);
    assertThat(reader.deserialize(TOPIC, lastNull, dispatch)).isInstanceOf(Decoded.Event.class);
    assertThat(reader.deserialize(TOPIC, header(""), dispatch)).isNull();
    assertThat(reader.deserialize(TOPIC, header(DISPATCHED), new byte[0])).isInstanceOf(Decoded.Malformed.class);
    assertThat(reader.deserialize(TOPIC, header(FAILED), (byte[]) null)).isNull();
    assertThat(endings.any()).isFalse();
  }

  @Test
  void noRecordMakesTheReaderThrow() {
    var random = new Random(42);
    var endings = new FleetEndings();
    var readers = List.of(new OrderLog.Orders(NODE, Verifier.off(), endings),
        new OrderLog.Orders(NODE, Verifier.against(TRUST), endings));
    var request = request("t-1", 4096);
    List<byte[]> seeds = List.of(
        encode("coordinator-0", dispatch("coordinator-0", request, "r", null)),
        encode("router-0", request),
        encode("coordinator-0", new TransferFailed("t-1", NODE, ReasonCodes.PEER_LOST, 0, "x")),
        SignedDocument.sign(encode("coordinator-0", new TransferTimedOut("t-1", NODE, 1)), COORDINATOR),
        SignedDocument.sign(encode("coordinator-0", new TransferRejected("t-1", NODE, "X", "")), COORDINATOR),
        nested(200_000), ("{\"type\":\"" + FAILED + "\",\"data\":" + "[".repeat(50_000)).getBytes(StandardCharsets.UTF_8),
        // An id of 1 MiB: no event carries one (its record is malformed), so it is written by hand.
        new String(encode("coordinator-0", new TransferFailed("t-huge", NODE, ReasonCodes.PEER_LOST, 0, "")),
            StandardCharsets.UTF_8).replace("t-huge", "x".repeat(1 << 20)).getBytes(StandardCharsets.UTF_8));
    List<String> types = List.of(DISPATCHED, REQUESTED, FAILED, "io.kvfleet.transfer.timed_out",
        "io.kvfleet.transfer.rejected", "io.kvfleet.transfer.completed", "", "\uFFFF");
    for (int i = 0; i < 4_000; i++) {
      byte[] value = mutate(seeds.get(random.nextInt(seeds.size())), random);
      Headers headers = switch (random.nextInt(5)) {
        case 0 -> null;
        case 1 -> new RecordHeaders();
        case 2 -> header(types.get(random.nextInt(types.size())));
        case 3 -> new RecordHeaders().add("ce_type", null);
        default -> new RecordHeaders().add("ce_type", randomBytes(random, 8));
      };
      var reader = readers.get(random.nextInt(readers.size()));
      assertThatCode(() -> reader.deserialize(TOPIC, headers, value)).as("record %d", i).doesNotThrowAnyException();
    }
  }

  // ---------------------------------------------------------------------------------------------
  // The agent: its order reader and runner, with a data plane that only records what it ran
  // ---------------------------------------------------------------------------------------------

  private final class Agent implements DataPlane {
    final Vertx vertx = Vertx.vertx();
    final Context context = vertx.getOrCreateContext();
    final FleetEndings endings = new FleetEndings();
    final OrderLog.Orders orders;
    final EventPublisher publisher;
    final OrderRunner runner;
    final List<String> ran = new CopyOnWriteArrayList<>();
    volatile String pagesOf;
    final CountDownLatch secondPage = new CountDownLatch(1);
    final java.util.concurrent.CompletableFuture<Optional<TransferFailed>> page = new java.util.concurrent.CompletableFuture<>();

    Agent(Signing signing) {
      var config = new AgentConfig(NODE, 1, "localhost", List.of(), RegistrationPolicy.FAIL_NODE,
          Duration.ofSeconds(1)).withSigning(signing);
      orders = new OrderLog.Orders(NODE, Verifier.of(signing), endings);
      var lease = new Lease(Duration.ofMinutes(5), Duration.ofSeconds(1));
      lease.acknowledged(lease.now());
      publisher = new EventPublisher("127.0.0.1:9", NODE, 1, Clock.systemUTC(), 16, Optional.empty(),
          Map.of("max.block.ms", 100));
      // Outcomes go nowhere: what matters is what the data plane was asked to move.
      var outcomes = new OutcomePublisher(vertx, context, publisher, () -> true, event -> { });
      runner = new OrderRunner(vertx, config, this, outcomes, Landings.NONE, lease, OrderRunner.remembered(),
          OrderRunner.refusalCounts(), endings);
    }

    /** One Kafka poll: every record deserialized first (on the polling thread), then the handler, in order. */
    void poll(Rec... records) {
      var read = Arrays.stream(records).map(r -> orders.deserialize(TOPIC, r.headers(), r.value())).toList();
      var handled = new CountDownLatch(1);
      context.runOnContext(v -> {
        try {
          for (var decoded : read) {
            if (decoded instanceof Decoded.Event e && e.envelope().data() instanceof TransferDispatched d
                && d.sourceNode().equals(NODE)) {
              runner.onDispatch(d);
            }
          }
        } finally {
          handled.countDown();
        }
      });
      await(handled);
    }

    void awaitRan(String key) {
      long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
      while (!ran.contains(key) && System.nanoTime() < until) {
        sleep();
      }
      assertThat(ran).as("orders the data plane ran (refusals: %s)", runner.refusals()).contains(key);
    }

    Optional<TransferFailed> awaitPage() {
      try {
        return page.get(20, TimeUnit.SECONDS);
      } catch (Exception e) {
        throw new AssertionError(e);
      }
    }

    @Override
    public FleetEvent transfer(TransferOrder order, Landings landings, Fence fence) {
      var request = order.request();
      ran.add(request.transferId() + "/" + order.requestEventId());
      if (request.transferId().equals(pagesOf)) {
        await(secondPage);
        var stopped = fence.before(request, () -> "page 2", 4096);
        page.complete(stopped);
        if (stopped.isPresent()) {
          return stopped.get();
        }
      }
      return new TransferCompleted(request.transferId(), NODE, request.totalBytes(), 1, "host/memcpy", "");
    }

    @Override
    public FleetEvent transfer(TransferOrder order) {
      throw new AssertionError("runs under a fence");
    }

    @Override
    public String transportAddress() {
      return "";
    }

    @Override
    public List<BackendCapability> capabilities() {
      return List.of();
    }

    @Override
    public List<FleetEvent> register(String nodeId, long epoch, RegionSpec region, String handle) {
      return List.of();
    }

    @Override
    public List<FleetEvent> deregister(String nodeId, long epoch, String regionId) {
      return List.of();
    }

    @Override
    public void close() {
      secondPage.countDown();
      vertx.close();
      Thread.ofVirtual().start(publisher::close);
    }
  }

  private Agent agent(Signing signing) {
    var agent = new Agent(signing);
    agents.add(agent);
    return agent;
  }

  // ---------------------------------------------------------------------------------------------
  // Records
  // ---------------------------------------------------------------------------------------------

  private static TransferRequested request(String id, long length) {
    return new TransferRequested(id, NODE, 1, "kv_data-0", "decode-0", 1, "kv_data-0", TransferOp.WRITE,
        List.of(new ByteRange(0, 0, length)), System.currentTimeMillis() + 60_000, false);
  }

  private static TransferDispatched dispatch(String coordinator, TransferRequested request, String requestEventId,
      FleetKey key) {
    var spec = new RegionSpec("kv_data-0", RegionKind.KV, MemoryType.DRAM, -1, 0x1000, 1 << 20, 4096, "kv_data", 0);
    var order = new TransferOrder(request, spec, spec, Map.of("host", "k"), "decode-0:1", requestEventId);
    var dispatched = new TransferDispatched(request.transferId(), NODE, coordinator, 1, order.dispatched(), "", "");
    return key == null ? dispatched : OrderSignature.sign(dispatched, key);
  }

  private Envelope envelope(String producer, long epoch, FleetEvent event) {
    long made = sequence.incrementAndGet(); // each record stamped after the one made before it, as a log's are
    return Envelope.of(producer, epoch, made, Instant.now().plusMillis(made), "", event);
  }

  private Rec plainRecord(String producer, FleetEvent event) {
    var envelope = envelope(producer, 1, event);
    var headers = new RecordHeaders();
    return new Rec(headers, new EnvelopeSerializer().serialize(TOPIC, headers, envelope), envelope.id());
  }

  private Rec signedRecord(String producer, FleetEvent event, FleetKey key) {
    var envelope = envelope(producer, 1, event);
    var headers = new RecordHeaders();
    return new Rec(headers, EnvelopeSerializer.signedBy(key).serialize(TOPIC, headers, envelope), envelope.id());
  }

  private byte[] encode(String producer, FleetEvent event) {
    return envelopeBytes(producer, 1, event);
  }

  private byte[] envelopeBytes(String producer, long epoch, FleetEvent event) {
    return codec.encode(envelope(producer, epoch, event));
  }

  private static Headers header(String type) {
    return new RecordHeaders().add("ce_type", type.getBytes(StandardCharsets.UTF_8));
  }

  private static Headers copy(Headers headers) {
    var copy = new RecordHeaders();
    headers.forEach(copy::add);
    return copy;
  }

  private static void replace(byte[] bytes, String from, String to) {
    byte[] f = from.getBytes(StandardCharsets.US_ASCII);
    for (int i = 0; i + f.length <= bytes.length; i++) {
      if (Arrays.equals(bytes, i, i + f.length, f, 0, f.length)) {
        System.arraycopy(to.getBytes(StandardCharsets.US_ASCII), 0, bytes, i, f.length);
        return;
      }
    }
    throw new AssertionError(from + " not found");
  }

  private static byte[] nested(int depth) {
    return ("{\"specversion\":\"1.0\",\"type\":\"" + FAILED + "\",\"data\":" + "{\"a\":".repeat(depth) + "1"
        + "}".repeat(depth) + "}").getBytes(StandardCharsets.UTF_8);
  }

  private static byte[] mutate(byte[] seed, Random random) {
    byte[] value = seed.clone();
    switch (random.nextInt(5)) {
      case 0 -> {
        for (int n = random.nextInt(8); n >= 0; n--) {
          value[random.nextInt(value.length)] = (byte) random.nextInt(256);
        }
      }
      case 1 -> value = Arrays.copyOf(value, random.nextInt(value.length + 1));
      case 2 -> {
        byte[] name = List.of(DISPATCHED, REQUESTED, FAILED).get(random.nextInt(3)).getBytes(StandardCharsets.US_ASCII);
        int at = random.nextInt(value.length);
        byte[] out = new byte[value.length + name.length];
        System.arraycopy(value, 0, out, 0, at);
        System.arraycopy(name, 0, out, at, name.length);
        System.arraycopy(value, at, out, at + name.length, value.length - at);
        value = out;
      }
      case 3 -> value = randomBytes(random, random.nextInt(64));
      default -> { }
    }
    return value;
  }

  private static byte[] randomBytes(Random random, int n) {
    byte[] bytes = new byte[n];
    random.nextBytes(bytes);
    return bytes;
  }

  private static void await(CountDownLatch latch) {
    try {
      if (!latch.await(20, TimeUnit.SECONDS)) {
        throw new AssertionError("timed out");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }

  private static void sleep() {
    try {
      Thread.sleep(10);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
