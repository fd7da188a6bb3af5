package io.kvfleet.control.coordinator;

import static io.kvfleet.control.coordinator.HybridLayouts.hybrid;
import static io.kvfleet.control.coordinator.HybridLayouts.request;
import static org.assertj.core.api.Assertions.assertThat;

import io.kvfleet.control.protocol.OrderPart;
import io.kvfleet.events.ByteRange;
import io.kvfleet.events.ReasonCodes;
import io.kvfleet.events.RequestPart;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Any complete, compatible request transfer is accepted and covers exactly its pages on every
 * buffer; any request missing a component, or naming an index past a buffer, is rejected.
 */
class RequestContractPropertyTest {

  /** A compatible pair: both nodes cut every component alike, with random buffer counts and sizes. */
  record Pair(List<HybridLayouts.Cut> cuts, List<RequestPart> parts) {}

  @Provide
  Arbitrary<Pair> complete() {
    Arbitrary<List<HybridLayouts.Cut>> cuts = Combinators.combine(
            Arbitraries.integers().between(1, 6), Arbitraries.integers().between(1, 3),
            Arbitraries.integers().between(1, 16), Arbitraries.longs().between(1, 8))
        .as((kvBuffers, stateBuffers, slots, scale) -> {
          List<HybridLayouts.Cut> list = new ArrayList<>();
          for (var c : hybrid()) {
            int buffers = c.kind() == io.kvfleet.events.RegionKind.KV ? kvBuffers
                : c.kind() == io.kvfleet.events.RegionKind.STATE ? stateBuffers : 1;
            list.add(c.buffers(buffers).item(c.item() * scale).slots(slots));
          }
          return list;
        });
    return cuts.flatMap(list -> {
      long slots = list.getFirst().slots();
      List<Arbitrary<RequestPart>> parts = list.stream().map(c -> Arbitraries.integers().between(0, (int) slots - 1)
              .list().ofMinSize(1).ofMaxSize(6).flatMap(src -> Arbitraries.integers().between(0, (int) slots - 1)
                  .list().ofSize(src.size()).map(dst -> new RequestPart(c.name(), src, dst))))
          .toList();
      return Combinators.combine(parts).as(ps -> new Pair(list, ps));
    });
  }

  @Property(tries = 200)
  void acceptsAnyCompleteCompatibleRequestAndCoversExactlyItsPages(@ForAll("complete") Pair pair) {
    var state = new HybridLayouts().pair(pair.cuts(), pair.cuts()).state();

    var result = RequestContract.check(state, request(pair.parts(), List.of()));

    assertThat(result).isInstanceOf(RequestContract.Result.Expanded.class);
    var expanded = ((RequestContract.Result.Expanded) result).parts();
    for (var cut : pair.cuts()) {
      var part = pair.parts().stream().filter(p -> p.component().equals(cut.name())).findFirst().orElseThrow();
      var buffers = expanded.stream().filter(p -> p.component().equals(cut.name())).toList();
      assertThat(buffers).hasSize(cut.buffers());
      for (OrderPart buffer : buffers) {
        assertThat(buffer.bytes()).isEqualTo(part.sourceIndices().size() * cut.item());
        assertThat(pages(buffer.ranges(), cut.item(), true)).containsExactlyElementsOf(part.sourceIndices());
        assertThat(pages(buffer.ranges(), cut.item(), false)).containsExactlyElementsOf(part.destinationIndices());
      }
    }
  }

  @Property(tries = 200)
  void rejectsAnyRequestMissingAComponent(@ForAll("complete") Pair pair, @ForAll("which") int which) {
    var state = new HybridLayouts().pair(pair.cuts(), pair.cuts()).state();
    var parts = new ArrayList<>(pair.parts());
    var left = parts.remove(which % parts.size());

    var result = RequestContract.check(state, request(parts, List.of()));

    assertThat(result).isInstanceOfSatisfying(RequestContract.Result.Broken.class, b -> {
      assertThat(b.reason()).isEqualTo(ReasonCodes.COMPONENT_MISSING);
      assertThat(b.detail()).contains("component '" + left.component() + "'");
    });
  }

  @Property(tries = 200)
  void rejectsAnyRequestWithAnIndexPastABuffer(@ForAll("complete") Pair pair, @ForAll("which") int which,
      @ForAll boolean onSource) {
    var state = new HybridLayouts().pair(pair.cuts(), pair.cuts()).state();
    var parts = new ArrayList<>(pair.parts());
    int at = which % parts.size();
    var part = parts.get(at);
    int past = (int) pair.cuts().getFirst().slots() + which % 3;
    var src = new ArrayList<>(part.sourceIndices());
    var dst = new ArrayList<>(part.destinationIndices());
    (onSource ? src : dst).set(which % src.size(), past);
    parts.set(at, new RequestPart(part.component(), src, dst));

    var result = RequestContract.check(state, request(parts, List.of()));

    assertThat(result).isInstanceOfSatisfying(RequestContract.Result.Broken.class, b -> {
      assertThat(b.reason()).isEqualTo(ReasonCodes.INDEX_OUT_OF_RANGE);
      assertThat(b.detail()).startsWith("component '" + part.component() + "' buffer 0")
          .contains((onSource ? "source" : "destination") + " index " + past + " is past");
    });
  }

  @Provide
  Arbitrary<Integer> which() {
    return Arbitraries.integers().between(0, 1000);
  }

  /** The page indices a buffer's ranges cover, in order, on one side. */
  private static List<Integer> pages(List<ByteRange> ranges, long item, boolean source) {
    List<Integer> pages = new ArrayList<>();
    for (ByteRange r : ranges) {
      long start = (source ? r.sourceOffset() : r.destinationOffset()) / item;
      for (long i = 0; i < r.length() / item; i++) {
        pages.add((int) (start + i));
      }
    }
    return pages;
  }
}
