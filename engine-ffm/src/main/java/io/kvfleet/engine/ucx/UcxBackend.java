package io.kvfleet.engine.ucx;

import io.kvfleet.engine.Capability;
import io.kvfleet.engine.Diagnosis;
import io.kvfleet.engine.EngineConfig;
import io.kvfleet.engine.EngineException;
import io.kvfleet.engine.MemoryType;
import io.kvfleet.engine.RegionRequest;
import io.kvfleet.engine.RegistrationFailure;
import io.kvfleet.engine.internal.Hex;
import io.kvfleet.engine.internal.MemInfo;
import io.kvfleet.engine.spi.Backend;
import io.kvfleet.engine.spi.BackendAllocation;
import io.kvfleet.engine.spi.BackendPeer;
import io.kvfleet.engine.spi.RegisterResult;
import io.kvfleet.engine.ucx.internal.Ucp;
import io.kvfleet.engine.ucx.internal.UcsStatus;
import java.lang.foreign.Arena;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The UCX backend of one engine: a context, a target worker (exported, served by {@link
 * TargetProgress}) and an initiator worker (used under {@link #initiatorLock} by every peer). The
 * target worker answers peers' questions about this backend's regions ({@link RegionVouching}); the
 * initiator worker collects the answers to its own ({@link QueryAnswers}).
 */
final class UcxBackend implements Backend {
  static final String NAME = "ucx";
  /** How long close waits for the target worker's pending messages (wireup answers) to go. */
  private static final long SETTLE_NANOS = 500_000_000L;

  private final UcpContext context;
  private final UcpWorker target;
  private final UcpWorker initiator;
  private final TargetProgress progress;
  private final ReentrantLock initiatorLock;
  private final UcxCapability capability;
  private final boolean peerFailureDetection;
  private final List<UcxAllocation> allocations = new CopyOnWriteArrayList<>();
  private final RegionVouching vouching;
  private final QueryAnswers answers;
  private final QueryEndpoints queries;
  /** Holds the two handlers' upcall stubs; closed after both workers are destroyed. */
  private final Arena handlers;

  private UcxBackend(UcpContext context, UcpWorker target, UcpWorker initiator,
      TargetProgress progress, UcxCapability capability, boolean peerFailureDetection,
      RegionVouching vouching, QueryAnswers answers, Arena handlers, ReentrantLock initiatorLock) {
    this.initiatorLock = initiatorLock;
    this.context = context;
    this.target = target;
    this.initiator = initiator;
    this.progress = progress;
    this.capability = capability;
    this.peerFailureDetection = peerFailureDetection;
    this.vouching = vouching;
    this.answers = answers;
    this.queries = new QueryEndpoints(initiator, peerFailureDetection);
    this.handlers = handlers;
  }

  /** Opens a context and its two workers; closes what it made if a step fails. */
  static UcxBackend open(EngineConfig config) {
    boolean wakeup = config.progress() == EngineConfig.Progress.EVENT;
    String tls = UcxTransports.chosen(config.ucxTransports(), System.getenv("UCX_TLS"),
        config.ucxAllowTcp());
    UcpContext context = UcpContext.create(config.name(), tls, config.ucxNetDevices(), wakeup);
    UcpWorker target = null;
    UcpWorker initiator = null;
    Arena handlers = Arena.ofShared();
    try {
      UcxCapability capability = UcxCapability.probe(context, tls);
      target = UcpWorker.create(context, "target");
      initiator = UcpWorker.create(context, "initiator");
      RegionVouching vouching = new RegionVouching(target.address());
      vouching.install(target, handlers);
      QueryAnswers answers = new QueryAnswers();
      answers.install(initiator, handlers);
      ReentrantLock initiatorLock = new ReentrantLock();
      UcpWorker initiatorWorker = initiator;
      TargetProgress progress = new TargetProgress(target, () -> progressIfFree(initiatorLock,
          initiatorWorker), config.progress(), config.name());
      return new UcxBackend(context, target, initiator, progress, capability,
          config.peerFailureDetection(), vouching, answers, handlers, initiatorLock);
    } catch (RuntimeException e) {
      if (initiator != null) {
        initiator.close();
      }
      if (target != null) {
        target.close();
      }
      handlers.close();
      context.close();
      throw e;
    }
  }

  /** One pass over the initiator worker when nobody holds it; 0 when busy or idle. */
  private static int progressIfFree(ReentrantLock lock, UcpWorker initiator) {
    if (!lock.tryLock()) {
      return 0;
    }
    try {
      return initiator.progress();
    } finally {
      lock.unlock();
    }
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public Capability capability() {
    return capability.capability();
  }

  @Override
  public Optional<BackendAllocation> allocate(String name, long length) {
    long available = MemInfo.available();
    if (available >= 0 && length > available) {
      // UCX's shared-memory allocators can fill /dev/shm before failing: refuse up front
      throw EngineException.allocationFailed(name, length, Diagnosis.of(
          RegistrationFailure.OUT_OF_MEMORY, "UCP_MEM_MAP_ALLOCATE of " + Hex.bytes(length)
              + " refused: MemAvailable is " + Hex.bytes(available)));
    }
    return switch (UcxMemory.allocate(context, length)) {
      case UcxMemory.Refused refused -> throw EngineException.allocationFailed(name, length,
          UcxFailures.diagnosis(refused.status(), refused.call(),
              "UCP_MEM_MAP_ALLOCATE of " + length + " bytes"));
      case UcxMemory.Ok ok -> {
        UcxAllocation[] holder = new UcxAllocation[1];
        holder[0] = new UcxAllocation(ok.memory(), () -> allocations.remove(holder[0]));
        allocations.add(holder[0]);
        yield Optional.of(holder[0]);
      }
    };
  }

  @Override
  public RegisterResult register(RegionRequest request, long address) {
    RegisterResult result = registerHere(request, address);
    if (result instanceof RegisterResult.Accepted accepted && accepted.region() instanceof UcxRegion region) {
      vouching.add(region);
    }
    return result;
  }

  private RegisterResult registerHere(RegionRequest request, long address) {
    if (request.memoryType() == MemoryType.VRAM) {
      return VramRegistration.register(context, capability, request, address);
    }
    for (UcxAllocation allocation : allocations) {
      if (allocation.memory().contains(address, request.length())) {
        return new RegisterResult.Accepted(
            new UcxRegion(allocation.memory(), address, request.length(), false));
      }
    }
    return switch (UcxMemory.register(context, address, request.length(), Ucp.MEMORY_TYPE_HOST)) {
      case UcxMemory.Refused refused -> new RegisterResult.Refused(UcxFailures.diagnosis(
          refused.status(), refused.call(), request.describe()));
      case UcxMemory.Ok ok -> new RegisterResult.Accepted(
          new UcxRegion(ok.memory(), address, request.length(), true));
    };
  }

  @Override
  public byte[] workerAddress() {
    return target.address();
  }

  @Override
  public BackendPeer connect(byte[] remoteAddress) {
    try {
      return UcxPeer.connect(initiator, initiatorLock, remoteAddress, peerFailureDetection, answers, queries);
    } catch (EngineException e) {
      if (e.nativeCode() != UcsStatus.ERR_UNREACHABLE) {
        throw e;
      }
      // UCX found no lane to the worker: say which transports this side has and how to get tcp back
      throw EngineException.noCommonTransport(NAME, "the peer's UCX worker offers none of this engine's"
          + " transports (" + String.join(", ", capability.transports())
          + (capability.tls().isEmpty() ? "" : "; UCX_TLS=" + capability.tls()) + "): a peer on another"
          + " host, or one that offers only tcp, is reached only with tcp allowed on both nodes"
          + " (--ucx-allow-tcp; docs/SECURITY.md, F0)", e.nativeCode(), UcsStatus.describe((int) e.nativeCode()));
    }
  }

  /** Stops the progress thread, destroys both workers, then the context. */
  @Override
  public void close() {
    try {
      progress.close();
    } finally {
      initiatorLock.lock();
      try {
        target.settle(SETTLE_NANOS, initiator::progress);
        vouching.abandonReplies();
        queries.closeAll();
        initiator.close();
        target.close();
        vouching.closeAfterWorker();
        handlers.close();
        for (UcxAllocation allocation : allocations) {
          allocation.close();
        }
      } finally {
        initiatorLock.unlock();
        context.close();
      }
    }
  }
}
