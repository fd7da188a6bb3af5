package io.kvfleet.engine.cuda;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The cuda backend's place: behind the SPI, its raw bindings its own, no other backend used. */
class CudaLayeringTest {
  private static JavaClasses engine;

  @BeforeAll
  static void importTheEngine() {
    engine = new ClassFileImporter()
        .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
        .withImportOption(location -> !location.contains("test-classes"))
        .importPackages("io.kvfleet.engine");
  }

  @Test
  void onlyTheCudaBackendTouchesTheRawCudaBindings() {
    noClasses().that().resideOutsideOfPackages("io.kvfleet.engine.cuda..")
        .should().dependOnClassesThat().resideInAPackage("io.kvfleet.engine.cuda.internal..")
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
  void theRawBindingsKnowNothingOfTheEngine() {
    classes().that().resideInAPackage("io.kvfleet.engine.cuda.internal..")
        .should().onlyDependOnClassesThat()
        .resideInAnyPackage("io.kvfleet.engine.cuda.internal..", "java..")
        .check(engine);
  }
}
