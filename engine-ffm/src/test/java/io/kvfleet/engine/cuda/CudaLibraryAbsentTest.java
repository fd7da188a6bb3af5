package io.kvfleet.engine.cuda;

import static org.assertj.core.api.Assertions.assertThat;

import io.kvfleet.engine.cuda.internal.NativeLibrary;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A node without libcudart: the cuda backend is unavailable and says why; the node still starts. */
class CudaLibraryAbsentTest {

  @Test
  void aNodeWithoutLibcudartStartsWithTheOtherBackendsAndSaysWhichLibraryIsMissing()
      throws Exception {
    String output = ChildJvm.run(AbsentLibraryMain.class,
        List.of("-Dkvfleet.cuda.library=libcudart-absent.so.13"));
    assertThat(output)
        .contains("capability cuda unavailable: libcudart-absent.so.13 not found")
        .contains("install the CUDA runtime")
        .contains("capability host available")
        .contains("backends [host]")
        .contains("outcome cuda skipped BACKEND_UNAVAILABLE cuda is unavailable: libcudart-absent.so.13")
        .contains("outcome host failed MEMORY_TYPE_UNSUPPORTED")
        .contains("libraryError libcudart-absent.so.13 not found");
  }

  @Test
  void namesEveryLibraryItTriedWhenNoneLoads() {
    NativeLibrary library = NativeLibrary.load(List.of("libcudart-absent.so.13", "libcudart-absent.so.12"));
    assertThat(library.lookup()).isNull();
    assertThat(library.loadError()).hasValueSatisfying(error -> assertThat(error)
        .startsWith("libcudart-absent.so.13 or libcudart-absent.so.12 not found"));
    assertThat(library.has("cudaMalloc")).isFalse();
  }

  @Test
  void takesTheFirstLibraryThatLoads() {
    NativeLibrary library = NativeLibrary.load(List.of("libcudart-absent.so.13", "libc.so.6"));
    assertThat(library.name()).isEqualTo("libc.so.6");
    assertThat(library.loadError()).isEmpty();
    assertThat(library.has("malloc")).isTrue();
  }

  @Test
  void readsLibraryNamesFromThePropertyBeforeTheDefaults() {
    System.setProperty("kvfleet.test.library", "a.so, b.so");
    try {
      assertThat(NativeLibrary.names("kvfleet.test.library", "KVFLEET_TEST_UNSET", List.of("c.so")))
          .containsExactly("a.so", "b.so");
    } finally {
      System.clearProperty("kvfleet.test.library");
    }
    assertThat(NativeLibrary.names("kvfleet.test.library", "KVFLEET_TEST_UNSET", List.of("c.so")))
        .containsExactly("c.so");
  }
}
