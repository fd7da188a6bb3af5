package io.kvfleet.engine.cuda;

import java.util.function.Function;

/** A value from a CUDA call, or the error that call returned. Exactly one is non-null. */
record CudaResult<T>(T value, CudaError error) {

  static <T> CudaResult<T> of(T value) {
    return new CudaResult<>(value, null);
  }

  static <T> CudaResult<T> failure(CudaError error) {
    return new CudaResult<>(null, error);
  }

  boolean succeeded() {
    return error == null;
  }

  /** The same failure, retyped. */
  <U> CudaResult<U> asFailure() {
    return failure(error);
  }

  <U> CudaResult<U> map(Function<T, U> mapper) {
    return succeeded() ? of(mapper.apply(value)) : asFailure();
  }
}
