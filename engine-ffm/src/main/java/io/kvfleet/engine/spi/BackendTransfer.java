package io.kvfleet.engine.spi;

import io.kvfleet.engine.TransferResult;
import java.util.Optional;

/** A posted batch. */
public interface BackendTransfer {

  /** Progresses once without blocking; the result when the whole batch is done. */
  Optional<TransferResult> poll();

  /** Gives up (deadline passed): releases what can be released; later polls are not made. */
  void abandon();
}
