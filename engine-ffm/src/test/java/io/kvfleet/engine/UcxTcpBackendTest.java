package io.kvfleet.engine;

/** The backend contract on UCX restricted to TCP (the cross-host transport) over loopback. */
class UcxTcpBackendTest extends BackendContract {
  @Override
  String backend() {
    return "ucx";
  }

  @Override
  EngineConfig config() {
    return super.config().withUcxTransports("tcp");
  }
}
