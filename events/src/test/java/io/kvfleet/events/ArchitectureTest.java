package io.kvfleet.events;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;
import java.time.Clock;
import java.time.Instant;

@AnalyzeClasses(packages = "io.kvfleet.events", importOptions = ImportOption.DoNotIncludeTests.class)
class ArchitectureTest {

  @ArchTest
  static final ArchRule eventsKnowNothingOfVertxBrokersNativeCodeOrOtherModules =
      noClasses()
          .should()
          .dependOnClassesThat()
          .resideInAnyPackage(
              "io.vertx..", "kafka..", "org.apache.kafka.server..", "java.lang.foreign..",
              "io.kvfleet.engine..", "io.kvfleet.control..");

  @ArchTest
  static final ArchRule onlyKafkasSerdeInterfacesAreUsed =
      noClasses()
          .should()
          .dependOnClassesThat(
              resideInAPackage("org.apache.kafka..")
                  .and(not(resideInAnyPackage(
                      "org.apache.kafka.common.serialization..", "org.apache.kafka.common.header.."))));

  @ArchTest
  static final ArchRule theEventLanguageNeedsNoCodecStateJsonOrKafka =
      noClasses()
          .that()
          .resideInAPackage("io.kvfleet.events")
          .should()
          .dependOnClassesThat()
          .resideInAnyPackage(
              "io.kvfleet.events.codec..", "io.kvfleet.events.state..", "io.kvfleet.events.snapshot..",
              "com.fasterxml..", "org.apache.kafka..");

  @ArchTest
  static final ArchRule theFoldNeedsNoCodecJsonOrKafka =
      noClasses()
          .that()
          .resideInAPackage("io.kvfleet.events.state..")
          .should()
          .dependOnClassesThat()
          .resideInAnyPackage("io.kvfleet.events.codec..", "com.fasterxml..", "org.apache.kafka..");

  /** Snapshots and the hash read the fold's state; the fold knows nothing of them. */
  @ArchTest
  static final ArchRule theFoldKnowsNothingOfSnapshots =
      noClasses()
          .that()
          .resideInAPackage("io.kvfleet.events.state..")
          .should()
          .dependOnClassesThat()
          .resideInAPackage("io.kvfleet.events.snapshot..");

  @ArchTest
  static final ArchRule snapshotsNeedNoCodecJsonKafkaOrReplay =
      noClasses()
          .that()
          .resideInAPackage("io.kvfleet.events.snapshot..")
          .should()
          .dependOnClassesThat()
          .resideInAnyPackage(
              "io.kvfleet.events.codec..", "io.kvfleet.events.replay..", "com.fasterxml..", "org.apache.kafka..");

  @ArchTest
  static final ArchRule theFoldReadsNoClock =
      noClasses()
          .that()
          .resideInAPackage("io.kvfleet.events.state..")
          .should()
          .callMethod(Instant.class, "now")
          .orShould()
          .callMethod(System.class, "currentTimeMillis")
          .orShould()
          .callMethod(System.class, "nanoTime")
          .orShould()
          .dependOnClassesThat()
          .areAssignableTo(Clock.class);
}
