package io.kvfleet.engine;

import io.kvfleet.engine.spi.Backend;
import io.kvfleet.engine.spi.BackendProbe;
import io.kvfleet.engine.spi.BackendProvider;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;

/** Finds backend providers with {@link ServiceLoader} and probes the enabled ones. */
final class Discovery {
  private Discovery() {}

  /** One provider's result. */
  record Probed(Capability capability, Optional<Backend> backend) {}

  static List<Probed> probe(EngineConfig config) {
    List<Probed> probed = new ArrayList<>();
    List<BackendProvider> providers = load(probed);
    for (BackendProvider provider : providers) {
      if (config.enables(provider.name())) {
        probed.add(probe(provider, config));
      }
    }
    for (String wanted : config.backends()) {
      if (providers.stream().noneMatch(p -> p.name().equals(wanted))
          && probed.stream().noneMatch(p -> p.capability().backend().equals(wanted))) {
        probed.add(new Probed(Capability.unavailable(wanted,
            "no provider named " + wanted + " on the class path"), Optional.empty()));
      }
    }
    probed.sort(Comparator.comparingInt(p -> priority(providers, p.capability().backend())));
    return probed;
  }

  /** The providers that load, by priority; one that fails to load is reported, not fatal. */
  private static List<BackendProvider> load(List<Probed> broken) {
    List<BackendProvider> providers = new ArrayList<>();
    Iterator<BackendProvider> found =
        ServiceLoader.load(BackendProvider.class, Engine.class.getClassLoader()).iterator();
    while (true) {
      try {
        if (!found.hasNext()) {
          break;
        }
        providers.add(found.next());
      } catch (ServiceConfigurationError e) {
        broken.add(new Probed(Capability.unavailable(providerName(e),
            "provider failed to load: " + e.getMessage()), Optional.empty()));
      }
    }
    providers.sort(Comparator.comparingInt(BackendProvider::priority));
    return providers;
  }

  private static int priority(List<BackendProvider> providers, String name) {
    return providers.stream().filter(p -> p.name().equals(name))
        .mapToInt(BackendProvider::priority).findFirst().orElse(Integer.MAX_VALUE);
  }

  /** The simple class name of the provider in a loading error, lower case: a best guess at its backend. */
  private static String providerName(ServiceConfigurationError e) {
    String message = String.valueOf(e.getMessage());
    int provider = message.indexOf("Provider ");
    if (provider < 0) {
      return "unknown";
    }
    String className = message.substring(provider + 9).split("\\s")[0];
    String simple = className.substring(className.lastIndexOf('.') + 1);
    return simple.replace("BackendProvider", "").replace("Provider", "").toLowerCase(java.util.Locale.ROOT);
  }

  private static Probed probe(BackendProvider provider, EngineConfig config) {
    try {
      return switch (provider.probe(config)) {
        case BackendProbe.Ready ready ->
            new Probed(ready.backend().capability(), Optional.of(ready.backend()));
        case BackendProbe.Unavailable unavailable ->
            new Probed(unavailable.capability(), Optional.empty());
      };
    } catch (RuntimeException | LinkageError e) {
      return new Probed(Capability.unavailable(provider.name(),
          "probe failed: " + e), Optional.empty());
    }
  }
}
