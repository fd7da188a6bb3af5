package io.kvfleet.engine.cuda;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.kvfleet.engine.cuda.internal.CudaEnums;
import io.kvfleet.engine.cuda.internal.CudaLayouts;
import io.kvfleet.engine.cuda.internal.CudaStatus;
import java.io.IOException;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemoryLayout.PathElement;
import java.lang.foreign.PaddingLayout;
import java.lang.foreign.StructLayout;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Compiles a C program against the installed CUDA headers that prints the size and offsets of
 * every struct the binding lays out and the value of every enum and flag it passes, and compares
 * them with the Java side. Skips, saying why, where gcc or the headers are missing.
 */
class CudaLayoutConformanceTest {
  private static final List<String> HEADER_DIRS = Stream.of(
          Optional.ofNullable(System.getenv("CUDA_HOME")).map(home -> home + "/include"),
          Optional.of("/usr/local/cuda/include"), Optional.of("/usr/local/cuda-13.0/include"),
          Optional.of("/usr/local/cuda-12/include"), Optional.of("/usr/include"))
      .flatMap(Optional::stream).toList();

  private static Map<String, Long> facts;

  @BeforeAll
  static void compileAndRun(@TempDir Path dir) throws Exception {
    Optional<String> include = HEADER_DIRS.stream()
        .filter(d -> Files.exists(Path.of(d, "cuda_runtime_api.h"))).findFirst();
    assumeTrue(include.isPresent(), "no cuda_runtime_api.h in " + HEADER_DIRS);
    assumeTrue(onPath("gcc"), "gcc is not on the PATH");
    Path source = dir.resolve("layouts.c");
    Files.writeString(source, program());
    Path binary = dir.resolve("layouts");
    run(List.of("gcc", "-I" + include.get(), "-o", binary.toString(), source.toString()));
    facts = new HashMap<>();
    for (String line : run(List.of(binary.toString())).split("\n")) {
      int space = line.lastIndexOf(' ');
      facts.put(line.substring(0, space), Long.parseLong(line.substring(space + 1)));
    }
  }

  @Test
  void everyStructHasTheSizeAndOffsetsOfTheHeader() {
    for (Map.Entry<String, StructLayout> struct : CudaLayouts.ALL.entrySet()) {
      assertThat(facts.get("sizeof " + struct.getKey())).as("sizeof " + struct.getKey())
          .isEqualTo(struct.getValue().byteSize());
      for (MemoryLayout member : named(struct.getValue())) {
        String name = member.name().orElseThrow();
        assertThat(facts.get("offsetof " + struct.getKey() + " " + name))
            .as(struct.getKey() + "." + name)
            .isEqualTo(struct.getValue().byteOffset(PathElement.groupElement(name)));
      }
    }
  }

  @Test
  void theDevicePropertiesPrefixMatchesAndTheWholeStructFitsTheBuffer() {
    for (MemoryLayout member : named(CudaLayouts.DEVICE_PROP_PREFIX)) {
      String name = member.name().orElseThrow();
      assertThat(facts.get("offsetof struct cudaDeviceProp " + name)).as("cudaDeviceProp." + name)
          .isEqualTo(CudaLayouts.DEVICE_PROP_PREFIX.byteOffset(PathElement.groupElement(name)));
    }
    assertThat(facts.get("sizeof struct cudaDeviceProp"))
        .isLessThanOrEqualTo(CudaLayouts.DEVICE_PROP_BUFFER);
  }

  @Test
  void everyEnumValueAndErrorCodeIsTheHeadersValue() {
    Map<String, Integer> values = new HashMap<>(CudaEnums.ALL);
    values.putAll(CudaStatus.ALL);
    for (Map.Entry<String, Integer> value : values.entrySet()) {
      assertThat(facts.get("value " + value.getKey())).as(value.getKey())
          .isEqualTo(value.getValue().longValue());
    }
  }

  private static String program() {
    StringBuilder c = new StringBuilder(
        "#include <stdio.h>\n#include <stddef.h>\n#include <cuda_runtime_api.h>\nint main(void) {\n");
    Map<String, StructLayout> structs = new HashMap<>(CudaLayouts.ALL);
    structs.put("struct cudaDeviceProp", CudaLayouts.DEVICE_PROP_PREFIX);
    for (Map.Entry<String, StructLayout> struct : structs.entrySet()) {
      c.append("  printf(\"sizeof %s %zu\\n\", \"").append(struct.getKey()).append("\", sizeof(")
          .append(struct.getKey()).append("));\n");
      for (MemoryLayout member : named(struct.getValue())) {
        String name = member.name().orElseThrow();
        c.append("  printf(\"offsetof %s %s %zu\\n\", \"").append(struct.getKey()).append("\", \"")
            .append(name).append("\", offsetof(").append(struct.getKey()).append(", ")
            .append(name).append("));\n");
      }
    }
    Map<String, Integer> values = new HashMap<>(CudaEnums.ALL);
    values.putAll(CudaStatus.ALL);
    for (String name : values.keySet()) {
      c.append("  printf(\"value %s %d\\n\", \"").append(name).append("\", (int) ").append(name)
          .append(");\n");
    }
    return c.append("  return 0;\n}\n").toString();
  }

  private static List<MemoryLayout> named(StructLayout struct) {
    return struct.memberLayouts().stream()
        .filter(m -> !(m instanceof PaddingLayout) && m.name().isPresent()).toList();
  }

  private static boolean onPath(String tool) {
    return Stream.of(System.getenv("PATH").split(":"))
        .anyMatch(dir -> Files.isExecutable(Path.of(dir, tool)));
  }

  private static String run(List<String> command) throws IOException, InterruptedException {
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(process.exitValue()).as(String.join(" ", command) + ":\n" + output).isZero();
    return output;
  }
}
