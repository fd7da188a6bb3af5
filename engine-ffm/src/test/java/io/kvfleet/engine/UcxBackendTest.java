package io.kvfleet.engine;

/** The backend contract on UCX with its default transports (shared memory between two workers). */
class UcxBackendTest extends BackendContract {
  @Override
  String backend() {
    return "ucx";
  }
}
