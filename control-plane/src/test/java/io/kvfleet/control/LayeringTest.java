package io.kvfleet.control;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

/**
 * The control plane's layering: the coordinator speaks to agents through {@code protocol} only,
 * {@code dataplane} is the one way to the engine and uses its public API only, and no package
 * cycles. The engine's and the events' own rules are in their modules.
 */
@AnalyzeClasses(packages = "io.kvfleet.control", importOptions = ImportOption.DoNotIncludeTests.class)
class LayeringTest {
  private static final String[] BACKENDS = {
      "io.kvfleet.engine.cuda..", "io.kvfleet.engine.ucx..", "io.kvfleet.engine.host.."};

  @ArchTest
  static final ArchRule theCoordinatorKnowsNoAgentAndNoDataPlane =
      noClasses().that().resideInAPackage("io.kvfleet.control.coordinator..")
          .should().dependOnClassesThat()
          .resideInAnyPackage("io.kvfleet.control.agent..", "io.kvfleet.control.dataplane..");

  @ArchTest
  static final ArchRule theAgentKnowsNoCoordinator =
      noClasses().that().resideInAPackage("io.kvfleet.control.agent..")
          .should().dependOnClassesThat().resideInAPackage("io.kvfleet.control.coordinator..");

  @ArchTest
  static final ArchRule theProtocolNeedsOnlyEventsVertxAndJson =
      noClasses().that().resideInAPackage("io.kvfleet.control.protocol..")
          .should().dependOnClassesThat()
          .resideInAnyPackage("io.kvfleet.control.agent..", "io.kvfleet.control.dataplane..",
              "io.kvfleet.control.coordinator..", "io.kvfleet.control.kafka..", "io.kvfleet.engine..");

  @ArchTest
  static final ArchRule onlyTheDataPlaneReachesTheEngine =
      noClasses().that().resideOutsideOfPackage("io.kvfleet.control.dataplane..")
          .should().dependOnClassesThat().resideInAPackage("io.kvfleet.engine..");

  @ArchTest
  static final ArchRule nothingReachesTheEnginesInternalsOrABackend =
      noClasses().should().dependOnClassesThat().resideInAPackage("io.kvfleet.engine..internal..")
          .orShould().dependOnClassesThat().resideInAnyPackage(BACKENDS);

  /** No cycles between the control plane's packages. */
  @ArchTest
  static final ArchRule noPackageCycles =
      slices().matching("io.kvfleet.control.(*)..").should().beFreeOfCycles();
}
