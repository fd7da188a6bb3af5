package io.kvfleet.control.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import org.infinispan.commons.util.Version;
import org.infinispan.security.Security;
import org.junit.jupiter.api.Test;

/**
 * kvfleet's stand-in for Infinispan 14's {@code Security} (it cannot run on JDK 24+) works only while
 * it comes before Infinispan's jar on the class path, and only for the Infinispan it was written for.
 */
class ShadowedSecurityTest {
  @Test
  void theStandInIsTheSecurityClassLoaded() {
    String from = Security.class.getProtectionDomain().getCodeSource().getLocation().toString();

    assertThat(from).as("where org.infinispan.security.Security was loaded from").doesNotContain("infinispan-core");
  }

  @Test
  void standsInForTheInfinispanItWasWrittenFor() {
    assertThat(Version.getVersion()).as("delete the stand-in when Infinispan moves on").startsWith("14.0.");
  }

  @Test
  void answersTheCurrentSubjectWhereInfinispansOwnWouldThrow() {
    assertThat(Security.getSubject()).isNull(); // no Subject here; Infinispan 14's own throws on JDK 24+
  }
}
