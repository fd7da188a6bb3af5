package io.kvfleet.engine.cuda;

import static java.util.Objects.requireNonNull;

import io.kvfleet.engine.Capability;
import io.kvfleet.engine.MemoryType;
import io.kvfleet.engine.Peer;
import io.kvfleet.engine.Registration;
import io.kvfleet.engine.RemoteRegion;
import io.kvfleet.engine.TransferBatch;
import io.kvfleet.engine.TransferFailure;
import io.kvfleet.engine.TransferResult;
import io.kvfleet.engine.internal.Hex;
import java.util.Optional;

/**
 * Device memory to a peer whose transport cannot register VRAM: each chunk goes VRAM → this node's
 * bounce buffer (pinned host memory registered with the transport) → the transport → the peer's
 * landing buffer → the peer's VRAM. The completion's path says so, e.g. {@code
 * cuda/staged+ucx/tcp}. Chunks run one after another through one bounce buffer. Not thread-safe:
 * one writer per bounce buffer.
 */
public final class StagedWrite {

  /** The peer's half: moves bytes that landed in its host buffer into its device memory. */
  @FunctionalInterface
  public interface Landing {
    /** Moves {@code length} bytes at {@code landingOffset} to {@code destinationOffset}; empty on success. */
    Optional<CudaError> land(long landingOffset, long destinationOffset, long length);
  }

  /** The device-to-host step; CUDA's, or a host copy in tests that have no GPU. */
  @FunctionalInterface
  interface Stage {
    Optional<CudaError> copy(long destination, long source, long length);
  }

  private final Peer transport;
  private final Registration bounce;
  private final RemoteRegion landing;
  private final Landing landingStep;
  private final Stage stage;
  private final TransferBatch batch = new TransferBatch();

  /**
   * Stages through {@code bounce} (registered with {@code transport}'s backend) into {@code
   * landing} (the peer's host buffer, attached through {@code transport}), then {@code landingStep}.
   */
  public StagedWrite(Peer transport, Registration bounce, RemoteRegion landing, Landing landingStep) {
    this(transport, bounce, landing, landingStep, CudaCopy::copy);
  }

  StagedWrite(Peer transport, Registration bounce, RemoteRegion landing, Landing landingStep,
      Stage stage) {
    this.transport = requireNonNull(transport, "transport must not be null");
    this.bounce = requireNonNull(bounce, "bounce must not be null");
    this.landing = requireNonNull(landing, "landing must not be null");
    this.landingStep = requireNonNull(landingStep, "landingStep must not be null");
    this.stage = stage;
  }

  /** A landing in this process: {@code cudaMemcpy} from the landing buffer into device memory. */
  public static Landing intoDevice(long landingAddress, long destinationAddress) {
    return (landingOffset, destinationOffset, length) -> CudaCopy.copy(
        destinationAddress + destinationOffset, landingAddress + landingOffset, length);
  }

  /** Whether VRAM must be staged to cross {@code transport}: it does not register VRAM. */
  public static boolean needed(Capability transport) {
    return !transport.supports(MemoryType.VRAM);
  }

  /** {@code cuda/staged+} and the transport's path. */
  public String path() {
    return "cuda/staged+" + transport.path();
  }

  /**
   * Writes {@code length} bytes of device memory at {@code source} to {@code destinationOffset}
   * of the peer's destination, chunk by chunk; the first failure ends it.
   */
  public TransferResult write(long source, long destinationOffset, long length) {
    if (source == 0) {
      throw new IllegalArgumentException("source must not be null");
    }
    if (length <= 0 || destinationOffset < 0) {
      throw new IllegalArgumentException("length must be positive and destinationOffset not"
          + " negative: length " + length + ", destinationOffset " + destinationOffset);
    }
    long chunk = Math.min(bounce.length(), landing.length());
    long started = System.nanoTime();
    int chunks = 0;
    for (long done = 0; done < length; done += chunk, chunks++) {
      long bytes = Math.min(chunk, length - done);
      String which = "chunk " + chunks + " (bytes " + done + ".." + (done + bytes) + ")";
      Optional<CudaError> staged = stage.copy(bounce.address(), source + done, bytes);
      if (staged.isPresent()) {
        return failed(which + ": staging " + Hex.range(source + done, bytes)
            + " into the bounce buffer at " + Hex.address(bounce.address()), staged.get(), chunks);
      }
      TransferResult sent = transport.write(batch.clear().add(bounce, 0, landing, 0, bytes));
      if (sent instanceof TransferResult.Failed failed) {
        return new TransferResult.Failed(failed.reason(), which + ": " + failed.detail(),
            failed.nativeCode(), failed.nativeMessage(), chunks, path());
      }
      Optional<CudaError> landed = landingStep.land(0, destinationOffset + done, bytes);
      if (landed.isPresent()) {
        return failed(which + ": landing at destination offset " + (destinationOffset + done),
            landed.get(), chunks);
      }
    }
    return new TransferResult.Completed(length, chunks, System.nanoTime() - started, path());
  }

  private TransferResult.Failed failed(String detail, CudaError error, int chunk) {
    return new TransferResult.Failed(TransferFailure.TRANSPORT_ERROR,
        detail + ": " + error.describe(), error.code(), error.nativeMessage(), chunk, path());
  }
}
