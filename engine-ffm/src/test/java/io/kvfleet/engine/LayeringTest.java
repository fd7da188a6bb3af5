package io.kvfleet.engine;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.equivalentTo;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import io.kvfleet.engine.internal.Calls;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The engine's layering: JDK only, API above SPI, backends behind ServiceLoader, bindings internal. */
class LayeringTest {
  private static JavaClasses engine;

  @BeforeAll
  static void importTheEngine() {
    engine = new ClassFileImporter()
        .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
        .withImportOption(location -> !location.contains("test-classes"))
        .importPackages("io.kvfleet.engine");
  }

  @Test
  void theEngineKnowsNothingOfEventsTheControlPlaneVertxOrKafka() {
    noClasses().should().dependOnClassesThat()
        .resideInAnyPackage("io.kvfleet.events..", "io.kvfleet.control..", "io.vertx..",
            "org.apache.kafka..", "com.fasterxml..")
        .check(engine);
  }

  @Test
  void theApiAndTheSpiDoNotReachIntoBackends() {
    noClasses().that().resideInAnyPackage("io.kvfleet.engine", "io.kvfleet.engine.spi")
        .should().dependOnClassesThat()
        .resideInAnyPackage("io.kvfleet.engine.ucx..", "io.kvfleet.engine.host..",
            "io.kvfleet.engine.cuda..", "io.kvfleet.engine.bench..")
        .check(engine);
  }

  @Test
  void onlyTheUcxBackendTouchesTheRawUcxBindings() {
    noClasses().that().resideOutsideOfPackages("io.kvfleet.engine.ucx..")
        .should().dependOnClassesThat().resideInAPackage("io.kvfleet.engine.ucx.internal..")
        .check(engine);
  }

  @Test
  void onlyTheCudaBackendTouchesTheRawCudaBindings() {
    noClasses().that().resideOutsideOfPackages("io.kvfleet.engine.cuda..")
        .should().dependOnClassesThat().resideInAPackage("io.kvfleet.engine.cuda.internal..")
        .check(engine);
  }

  @Test
  void theRawCudaBindingsKnowNothingOfTheEngineButItsOneCallsHelper() {
    classes().that().resideInAPackage("io.kvfleet.engine.cuda.internal..")
        .should().onlyDependOnClassesThat(
            resideInAnyPackage("io.kvfleet.engine.cuda.internal..", "java..").or(equivalentTo(Calls.class)))
        .check(engine);
  }

  @Test
  void theCudaBackendDependsOnNoOtherBackend() {
    noClasses().that().resideInAPackage("io.kvfleet.engine.cuda..")
        .should().dependOnClassesThat()
        .resideInAnyPackage("io.kvfleet.engine.ucx..", "io.kvfleet.engine.host..")
        .check(engine);
  }

  @Test
  void theUcxAndHostBackendsDoNotDependOnEachOther() {
    noClasses().that().resideInAPackage("io.kvfleet.engine.ucx..")
        .should().dependOnClassesThat().resideInAPackage("io.kvfleet.engine.host..")
        .check(engine);
    noClasses().that().resideInAPackage("io.kvfleet.engine.host..")
        .should().dependOnClassesThat().resideInAPackage("io.kvfleet.engine.ucx..")
        .check(engine);
  }

  @Test
  void theBenchmarkUsesThePublicApiOnly() {
    noClasses().that().resideInAPackage("io.kvfleet.engine.bench..")
        .should().dependOnClassesThat()
        .resideInAnyPackage("io.kvfleet.engine.ucx..", "io.kvfleet.engine.host..",
            "io.kvfleet.engine.spi..", "io.kvfleet.engine.internal..")
        .check(engine);
  }
}
