package io.kvfleet.events.codec;

import static org.assertj.core.api.Assertions.assertThat;

import io.kvfleet.events.EventType;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** {@link VersionOne}'s records against {@link OlderVersions}' list of the fields version 2 added. */
class VersionOneTest {
  private static List<String> names(Class<?> record) {
    return Arrays.stream(record.getRecordComponents()).map(RecordComponent::getName).toList();
  }

  private static List<Class<?>> types(Class<?> record) {
    return Arrays.stream(record.getRecordComponents()).<Class<?>>map(RecordComponent::getType).toList();
  }

  @ParameterizedTest
  @EnumSource(EventType.class)
  void holdsExactlyTheCurrentFieldsLessThoseALaterVersionAdded(EventType type) {
    var added = OlderVersions.addedAfterVersion1(type);
    var one = VersionOne.of(type);
    if (added.isEmpty()) {
      assertThat(one).as("%s has no fields added after version 1, so no version-1 record", type).isEmpty();
      return;
    }
    assertThat(type.schemaVersion()).isGreaterThan(1);
    assertThat(one).as("%s added fields after version 1: its version-1 data needs a record", type).isPresent();
    var expected = new ArrayList<>(names(type.javaType()));
    assertThat(expected).containsAll(added);
    expected.removeAll(added);
    assertThat(names(one.get())).as("%s version 1, in the current record's order", type).isEqualTo(expected);

    var currentTypes = types(type.javaType());
    var currentNames = names(type.javaType());
    var oneNames = names(one.get());
    var oneTypes = types(one.get());
    for (int i = 0; i < oneNames.size(); i++) {
      assertThat(oneTypes.get(i)).as("%s.%s", type, oneNames.get(i))
          .isEqualTo(currentTypes.get(currentNames.indexOf(oneNames.get(i))));
    }
  }
}
