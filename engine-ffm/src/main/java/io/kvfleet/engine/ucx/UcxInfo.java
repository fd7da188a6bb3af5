package io.kvfleet.engine.ucx;

import io.kvfleet.engine.MemoryType;
import io.kvfleet.engine.ucx.internal.Ucp;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Reads what UCX prints about a context and an endpoint, and names its memory types. */
final class UcxInfo {
  private UcxInfo() {}

  private static final Pattern MEMORY_DOMAIN =
      Pattern.compile("md\\s+\\d+\\s*:\\s*component\\s+\\d+\\s+(\\S+)");
  private static final Pattern RESOURCE =
      Pattern.compile("resource\\s+\\d+\\s*:\\s*md\\s+\\d+\\s+dev\\s+\\d+\\s+flags\\s+\\S+\\s+([^/\\s]+)/");
  private static final Pattern LANE = Pattern.compile("lane\\[\\d+\\]:\\s+\\d+:([^/\\s]+)/");

  /** The memory domains in {@code ucp_context_print_info} output, e.g. self, tcp, sysv. */
  static List<String> memoryDomains(String contextInfo) {
    return distinct(MEMORY_DOMAIN.matcher(contextInfo));
  }

  /** The transports of the resources in {@code ucp_context_print_info} output. */
  static List<String> transports(String contextInfo) {
    return distinct(RESOURCE.matcher(contextInfo));
  }

  /** The transports of an endpoint's lanes in {@code ucp_ep_print_info} output. */
  static List<String> laneTransports(String endpointInfo) {
    return distinct(LANE.matcher(endpointInfo));
  }

  /** The engine memory types a {@code ucs_memory_type_t} mask covers. */
  static List<MemoryType> memoryTypes(long mask) {
    List<MemoryType> types = new ArrayList<>();
    if ((mask & (1L << Ucp.MEMORY_TYPE_HOST)) != 0) {
      types.add(MemoryType.DRAM);
    }
    if ((mask & ((1L << Ucp.MEMORY_TYPE_CUDA) | (1L << Ucp.MEMORY_TYPE_CUDA_MANAGED))) != 0) {
      types.add(MemoryType.VRAM);
    }
    return types;
  }

  /** UCX's names for a {@code ucs_memory_type_t} mask: host, cuda, cuda-managed, rocm, rocm-managed. */
  static String memoryTypeNames(long mask) {
    String[] names = {"host", "cuda", "cuda-managed", "rocm", "rocm-managed"};
    List<String> present = new ArrayList<>();
    for (int i = 0; i < names.length; i++) {
      if ((mask & (1L << i)) != 0) {
        present.add(names[i]);
      }
    }
    return present.isEmpty() ? "none" : String.join(", ", present);
  }

  private static List<String> distinct(Matcher matcher) {
    Set<String> found = new LinkedHashSet<>();
    while (matcher.find()) {
      found.add(matcher.group(1));
    }
    return List.copyOf(found);
  }
}
