package io.kvfleet.engine;

import java.io.PrintStream;

/**
 * Prints what the engine's backends can do on this node, like {@code ucx_info}. {@code java
 * --enable-native-access=ALL-UNNAMED -cp engine-ffm/target/classes io.kvfleet.engine.EngineInfo}
 */
public final class EngineInfo {
  private EngineInfo() {}

  public static void main(String[] args) {
    try (Engine engine = Engine.open(EngineConfig.defaults().withName("engine-info"))) {
      print(engine, System.out);
    }
  }

  /** One line per backend, available or not, then the usable backends. */
  public static void print(Engine engine, PrintStream out) {
    for (Capability capability : engine.capabilities()) {
      out.println(capability.summary());
    }
    out.println("usable backends: " + (engine.backends().isEmpty()
        ? "none" : String.join(", ", engine.backends())));
  }
}
