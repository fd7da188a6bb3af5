package io.kvfleet.control.protocol;

import io.vertx.core.eventbus.EventBus;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.WeakHashMap;

/**
 * Installs the typed codecs of every message that crosses the EventBus; the coordinator and each
 * agent call it on start, any number of times per EventBus (a demo runs them all on one).
 */
public final class Protocol {
  private static final List<Class<? extends Record>> MESSAGES =
      List.of(TransferOrder.class, OrderReply.class, StagedChunk.class, LandingReply.class);
  private static final Set<EventBus> INSTALLED = Collections.newSetFromMap(
      Collections.synchronizedMap(new WeakHashMap<EventBus, Boolean>()));

  private Protocol() {}

  /** Registers the codecs on {@code bus} unless they are registered already. */
  public static synchronized void install(EventBus bus) {
    if (INSTALLED.add(bus)) {
      MESSAGES.forEach(type -> register(bus, type));
    }
  }

  private static <T extends Record> void register(EventBus bus, Class<T> type) {
    bus.registerDefaultCodec(type, new RecordCodec<>(type));
  }

}
