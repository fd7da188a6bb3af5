package io.kvfleet.engine.ucx;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.kvfleet.engine.ucx.internal.Ucp;
import io.kvfleet.engine.ucx.internal.UcpLayouts;
import java.io.IOException;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemoryLayout.PathElement;
import java.lang.foreign.PaddingLayout;
import java.lang.foreign.StructLayout;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Compiles src/test/c/ucp_layouts.c against the installed ucp.h with the system C compiler and
 * checks every struct size, field offset and field size the binding declares. Skips, saying why,
 * where the headers or a compiler are missing.
 */
class UcpLayoutConformanceTest {
  private static final Path SOURCE = Path.of("src/test/c/ucp_layouts.c");
  private static final Path HEADER = Path.of("/usr/include/ucp/api/ucp.h");
  private static final Map<String, long[]> NATIVE = new HashMap<>();
  private static String apiVersion = "";

  @BeforeAll
  static void compileAndRunTheCProgram() throws IOException, InterruptedException {
    assumeTrue(Files.exists(HEADER), "no " + HEADER + " (install libucx-dev)");
    String compiler = findCompiler();
    assumeTrue(compiler != null, "no C compiler (cc or gcc) on PATH");
    Path binary = Path.of("target", "ucp-layouts");
    Files.createDirectories(binary.getParent());
    run(compiler, "-o", binary.toString(), SOURCE.toString());
    for (String line : run(binary.toString()).split("\n")) {
      String[] fields = line.trim().split("\\s+");
      if (fields[0].equals("ucp_api")) {
        apiVersion = fields[1];
      } else if (fields[1].equals("sizeof")) {
        NATIVE.put(fields[0], new long[] {Long.parseLong(fields[2])});
      } else {
        NATIVE.put(fields[0], new long[] {Long.parseLong(fields[1]), Long.parseLong(fields[2])});
      }
    }
  }

  @Test
  void theHeadersAreTheApiVersionTheLayoutsWereWrittenFor() {
    assertThat(apiVersion).isEqualTo(Ucp.API_MAJOR + "." + Ucp.API_MINOR);
  }

  @Test
  void everyStructHasTheSizeTheHeadersGiveIt() {
    UcpLayouts.ALL.forEach((name, layout) -> {
      assertThat(NATIVE).as("the C program prints sizeof(%s)", name).containsKey(name);
      assertThat(layout.byteSize()).as("sizeof(%s)", name).isEqualTo(NATIVE.get(name)[0]);
    });
  }

  @Test
  void everyFieldHasTheOffsetAndSizeTheHeadersGiveIt() {
    UcpLayouts.ALL.forEach((name, layout) -> {
      for (MemoryLayout member : layout.memberLayouts()) {
        if (member instanceof PaddingLayout) {
          continue;
        }
        String field = member.name().orElseThrow();
        long[] expected = NATIVE.get(name + "." + field);
        assertThat(expected).as("the C program prints %s.%s", name, field).isNotNull();
        assertThat(layout.byteOffset(PathElement.groupElement(field)))
            .as("offsetof(%s, %s)", name, field).isEqualTo(expected[0]);
        assertThat(member.byteSize()).as("sizeof(%s.%s)", name, field).isEqualTo(expected[1]);
      }
    });
  }

  @Test
  void theCProgramChecksNoFieldTheBindingLacks() {
    NATIVE.keySet().stream().filter(key -> key.contains(".")).forEach(key -> {
      String[] parts = key.split("\\.");
      StructLayout layout = UcpLayouts.ALL.get(parts[0]);
      assertThat(layout).as("a layout for %s", parts[0]).isNotNull();
      assertThat(layout.memberLayouts().stream().anyMatch(m -> m.name().orElse("").equals(parts[1])))
          .as("UcpLayouts declares %s", key).isTrue();
    });
  }

  private static String findCompiler() {
    for (String candidate : new String[] {"cc", "gcc"}) {
      for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
        if (Files.isExecutable(Path.of(dir, candidate))) {
          return Path.of(dir, candidate).toString();
        }
      }
    }
    return null;
  }

  private static String run(String... command) throws IOException, InterruptedException {
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("%s finished", command[0]).isTrue();
    assertThat(process.exitValue()).as("%s exit status; output:%n%s", String.join(" ", command), output)
        .isZero();
    return output;
  }
}
