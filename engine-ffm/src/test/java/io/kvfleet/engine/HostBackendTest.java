package io.kvfleet.engine;

/** The backend contract on the libc-only host backend. */
class HostBackendTest extends BackendContract {
  @Override
  String backend() {
    return "host";
  }
}
