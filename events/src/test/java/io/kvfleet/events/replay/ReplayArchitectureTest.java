package io.kvfleet.events.replay;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;
import java.time.Clock;
import java.time.Instant;

@AnalyzeClasses(packages = "io.kvfleet.events.replay", importOptions = ImportOption.DoNotIncludeTests.class)
class ReplayArchitectureTest {

  @ArchTest
  static final ArchRule replayDoesNoIo =
      noClasses()
          .that()
          .resideInAPackage("io.kvfleet.events.replay..")
          .should()
          .dependOnClassesThat()
          .resideInAnyPackage("java.nio.file..", "java.net..", "java.nio.channels..", "org.apache.kafka..")
          .orShould()
          .dependOnClassesThat()
          .haveFullyQualifiedName("java.io.File");

  @ArchTest
  static final ArchRule replayReadsNoClock =
      noClasses()
          .that()
          .resideInAPackage("io.kvfleet.events.replay..")
          .should()
          .callMethod(Instant.class, "now")
          .orShould()
          .callMethod(System.class, "currentTimeMillis")
          .orShould()
          .dependOnClassesThat()
          .areAssignableTo(Clock.class);
}
