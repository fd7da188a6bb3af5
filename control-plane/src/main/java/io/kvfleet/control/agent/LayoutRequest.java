package io.kvfleet.control.agent;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.kvfleet.events.MemoryType;
import io.kvfleet.events.RegionKind;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The body of {@code POST /v1/layout}: a served model in the shape a server has at hand. sglang's
 * {@code kv_data_ptrs/lens} and {@code kv_item_lens}, {@code state_data_ptrs/lens} and
 * {@code state_item_lens} per state component, {@code aux_data_ptrs/lens} and {@code aux_item_lens};
 * or vLLM's per-layer KV caches ({@code kv_caches}) instead of the KV lists. Optional fields are
 * defaulted: device -1, VRAM for KV and state, DRAM for aux, page size 1, buffer i holds layer i.
 */
record LayoutRequest(
    String modelId,
    Integer tpRank,
    Integer tpSize,
    MemoryType memoryType,
    Integer device,
    @JsonProperty("page_size") Integer pageSize,
    @JsonProperty("kv_dtype") String kvDtype,
    @JsonProperty("kv_data_ptrs") List<Long> kvDataPtrs,
    @JsonProperty("kv_data_lens") List<Long> kvDataLens,
    @JsonProperty("kv_item_lens") List<Long> kvItemLens,
    @JsonProperty("kv_layers") List<Integer> kvLayers,
    @JsonProperty("kv_caches") List<LayerCache> kvCaches,
    List<State> state,
    @JsonProperty("aux_data_ptrs") List<Long> auxDataPtrs,
    @JsonProperty("aux_data_lens") List<Long> auxDataLens,
    @JsonProperty("aux_item_lens") List<Long> auxItemLens) {

  /** One state component (conv, SSM, sliding-window state), sglang-shaped. */
  record State(
      String name,
      String dtype,
      MemoryType memoryType,
      @JsonProperty("state_data_ptrs") List<Long> stateDataPtrs,
      @JsonProperty("state_data_lens") List<Long> stateDataLens,
      @JsonProperty("state_item_lens") List<Long> stateItemLens,
      List<Integer> layers) {}

  /** One layer's KV cache as vLLM registers it: the layer, its tensor's address and size, its block length. */
  record LayerCache(
      @JsonProperty("layer_name") String layerName,
      Integer layer,
      @JsonProperty("data_ptr") Long dataPtr,
      Long len,
      @JsonProperty("block_len") Long blockLen) {}

  /** The served model; an exception saying what is missing or inconsistent. */
  ServedModel toModel() {
    Objects.requireNonNull(modelId, "modelId must be given");
    int device = this.device == null ? -1 : this.device;
    MemoryType gpu = memoryType == null ? MemoryType.VRAM : memoryType;
    List<ServedComponent> components = new ArrayList<>();
    components.add(kvCaches != null ? vllm(device, gpu) : new ServedComponent(
        new Component("kv", RegionKind.KV, gpu, device, required(kvDataPtrs, "kv_data_ptrs"),
            required(kvDataLens, "kv_data_lens"), required(kvItemLens, "kv_item_lens")),
        orEmpty(kvDtype), pageSize == null ? 1 : pageSize, kvLayers == null ? List.of() : kvLayers));
    for (State s : state == null ? List.<State>of() : state) {
      Objects.requireNonNull(s.name(), "every state component needs a name (e.g. conv, ssm)");
      components.add(new ServedComponent(new Component(s.name(), RegionKind.STATE,
          s.memoryType() == null ? gpu : s.memoryType(), device, required(s.stateDataPtrs(), s.name() + ".state_data_ptrs"),
          required(s.stateDataLens(), s.name() + ".state_data_lens"),
          required(s.stateItemLens(), s.name() + ".state_item_lens")),
          orEmpty(s.dtype()), 1, s.layers() == null ? List.of() : s.layers()));
    }
    if (auxDataPtrs != null) {
      components.add(new ServedComponent(new Component("aux", RegionKind.AUX, MemoryType.DRAM, -1, auxDataPtrs,
          required(auxDataLens, "aux_data_lens"), required(auxItemLens, "aux_item_lens")), "", 1, List.of()));
    }
    return new ServedModel(modelId, tpRank == null ? 0 : tpRank, tpSize == null ? 1 : tpSize, components);
  }

  private ServedComponent vllm(int device, MemoryType gpu) {
    List<Long> ptrs = new ArrayList<>();
    List<Long> lens = new ArrayList<>();
    List<Long> items = new ArrayList<>();
    List<Integer> layers = new ArrayList<>();
    for (LayerCache c : kvCaches) {
      ptrs.add(Objects.requireNonNull(c.dataPtr(), "kv_caches: data_ptr must be given for every layer"));
      lens.add(Objects.requireNonNull(c.len(), "kv_caches: len must be given for every layer"));
      items.add(Objects.requireNonNull(c.blockLen(), "kv_caches: block_len must be given for every layer"));
      layers.add(Objects.requireNonNull(c.layer(), "kv_caches: layer must be given for every layer"));
    }
    return new ServedComponent(new Component("kv", RegionKind.KV, gpu, device, ptrs, lens, items),
        orEmpty(kvDtype), pageSize == null ? 1 : pageSize, layers);
  }

  private static <T> List<T> required(List<T> list, String field) {
    return Objects.requireNonNull(list, field + " must be given");
  }

  private static String orEmpty(String text) {
    return text == null ? "" : text;
  }
}
