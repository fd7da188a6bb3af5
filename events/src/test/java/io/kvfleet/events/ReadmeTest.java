package io.kvfleet.events;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.kvfleet.events.codec.CloudEvents;
import io.kvfleet.events.codec.Decoded;
import io.kvfleet.events.codec.EnvelopeSerializer;
import io.kvfleet.events.codec.EventCodec;
import io.kvfleet.events.trust.FleetKey;
import io.kvfleet.events.trust.KeyBinding;
import io.kvfleet.events.trust.Role;
import io.kvfleet.events.trust.SignedDocument;
import io.kvfleet.events.trust.TrustFile;
import io.kvfleet.events.trust.Verdict;
import io.kvfleet.events.trust.Verifier;
import java.io.IOException;
import java.lang.reflect.RecordComponent;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/** The wire schema in README.md says what the code does. */
class ReadmeTest {
  private static final String README = read();
  private static final Pattern JSON_BLOCK = Pattern.compile("```json\n(.*?)```", Pattern.DOTALL);

  @ParameterizedTest
  @EnumSource(EventType.class)
  void listsEveryEventTypeWithItsVersionAndTopic(EventType type) {
    assertThat(README)
        .contains("| `" + type.wireName() + "` | " + type.schemaVersion() + " | `" + type.topic() + "` |");
  }

  @ParameterizedTest
  @EnumSource(EventType.class)
  void documentsEveryFieldOfEachEventType(EventType type) {
    String section = section("### `" + type.wireName() + "` (" + type.javaType().getSimpleName() + ")");

    assertThat(section).contains("Version " + type.schemaVersion() + ", topic `" + type.topic() + "`.");
    assertThat(fieldsOf(section)).containsExactly(componentsOf(type.javaType()));
  }

  @ParameterizedTest
  @ValueSource(classes = {RegionSpec.class, BackendCapability.class, ByteRange.class, LayoutComponent.class,
      RequestPart.class, PartOutcome.class, DispatchedOrder.class, DispatchedPart.class})
  void documentsEveryFieldOfTheObjectsInsideData(Class<?> type) {
    assertThat(fieldsOf(section("### " + type.getSimpleName()))).containsExactly(componentsOf(type));
  }

  @Test
  void documentsEveryCloudEventsAttribute() {
    assertThat(CloudEvents.ATTRIBUTES).allSatisfy(a -> assertThat(README).contains("| `" + a + "` |"));
    assertThat(CloudEvents.SIGNED_ATTRIBUTES).allSatisfy(a -> assertThat(README).contains("| `" + a + "` |"));
  }

  @Test
  void documentsTheKafkaContentTypeHeader() {
    assertThat(README).contains("`" + EnvelopeSerializer.CONTENT_TYPE_HEADER + ": " + Topics.CONTENT_TYPE + "`");
  }

  @Test
  void showsExamplesThatDecodeAndEncodeBackToThemselves() throws IOException {
    var codec = new EventCodec();
    var mapper = new ObjectMapper();
    List<String> examples = JSON_BLOCK.matcher(README).results().map(m -> m.group(1)).toList();

    assertThat(examples).hasSizeGreaterThanOrEqualTo(3);
    for (String example : examples) {
      Decoded decoded = codec.decode(example.getBytes(StandardCharsets.UTF_8));
      assertThat(decoded).as(example).isInstanceOf(Decoded.Event.class);
      Envelope envelope = ((Decoded.Event) decoded).envelope();
      assertThat(envelope.data()).isNotInstanceOf(OpaqueEvent.class);
      assertThat(mapper.readTree(codec.encode(envelope))).isEqualTo(mapper.readTree(example));
    }
    assertThat(README)
        .contains("\"type\": \"io.kvfleet.peer.joined\"")
        .contains("\"type\": \"io.kvfleet.region.registration_failed\"")
        .contains("\"type\": \"io.kvfleet.transfer.requested\"");
  }

  @Test
  void signsTheTestVectorAsItShowsAndVerifiesIt() {
    List<String> blocks = Pattern.compile("```text\n(.*?)```", Pattern.DOTALL)
        .matcher(section("## Signed documents")).results().map(m -> m.group(1).strip()).toList();
    FleetKey key = FleetKey.parse("prefill-0", blocks.get(0));
    byte[] document = blocks.get(1).getBytes(StandardCharsets.UTF_8);
    byte[] signed = SignedDocument.sign(document, key);

    assertThat(new String(signed, StandardCharsets.UTF_8)).isEqualTo(blocks.get(2));
    var publicKey = TrustFile.publicKey("MCowBQYDK2VwAyEATBA73f3x1B5dZx460GrChUPrPJCxDWTKJFokHZdQdhI=").orElseThrow();
    assertThat(README).contains("`MCowBQYDK2VwAyEATBA73f3x1B5dZx460GrChUPrPJCxDWTKJFokHZdQdhI=`");
    var trust = TrustFile.of(new KeyBinding("prefill-0", publicKey, Role.NODE, Set.of("prefill-0"),
        Set.of("prefill-0")));
    var codec = new EventCodec();
    Decoded decoded = codec.decode(signed);
    assertThat(decoded).isEqualTo(codec.decode(document));
    assertThat(Verifier.against(trust).check(signed, ((Decoded.Event) decoded).envelope(), id -> Optional.empty()))
        .isInstanceOf(Verdict.Trusted.class);
  }

  private static String section(String heading) {
    int start = README.indexOf(heading + "\n");
    assertThat(start).as("heading %s", heading).isNotNegative();
    int end = README.indexOf("\n#", start + heading.length());
    return README.substring(start, end < 0 ? README.length() : end);
  }

  /** The field names of the section's table, in order. */
  private static String[] fieldsOf(String section) {
    return Pattern.compile("(?m)^\\| `([a-zA-Z]+)` \\|")
        .matcher(section)
        .results()
        .map(m -> m.group(1))
        .toArray(String[]::new);
  }

  private static String[] componentsOf(Class<?> type) {
    RecordComponent[] components = type.getRecordComponents();
    String[] names = new String[components.length];
    for (int i = 0; i < components.length; i++) {
      names[i] = components[i].getName();
    }
    return names;
  }

  private static String read() {
    try {
      // Surefire runs in the module's base directory.
      return Files.readString(Path.of("README.md"));
    } catch (IOException e) {
      throw new IllegalStateException("events/README.md must be readable from the module directory", e);
    }
  }
}
