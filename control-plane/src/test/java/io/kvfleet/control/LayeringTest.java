package io.kvfleet.control;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaCall;
import com.tngtech.archunit.core.domain.JavaClass;
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

  /**
   * Every Kafka client is made by {@code KafkaClients}, so none forgets the cluster's client
   * properties ({@code --kafka-config}: TLS, SASL) and talks PLAINTEXT to a secured cluster.
   */
  @ArchTest
  static final ArchRule onlyKafkaClientsMakesAKafkaClient =
      noClasses().that().haveNameNotMatching("io\\.kvfleet\\.control\\.kafka\\.KafkaClients(\\$.+)?")
          .should().callConstructorWhere(targetIn(org.apache.kafka.clients.producer.KafkaProducer.class,
              org.apache.kafka.clients.consumer.KafkaConsumer.class))
          .orShould().callMethodWhere(targetIn(org.apache.kafka.clients.admin.Admin.class,
              io.vertx.kafka.client.consumer.KafkaConsumer.class, io.vertx.kafka.client.producer.KafkaProducer.class,
              io.vertx.kafka.admin.KafkaAdminClient.class).and(named("create")));

  private static DescribedPredicate<JavaCall<?>> targetIn(Class<?>... owners) {
    return DescribedPredicate.describe("a target owned by a Kafka client class", call -> {
      JavaClass owner = call.getTargetOwner();
      for (Class<?> c : owners) {
        if (owner.isAssignableTo(c)) {
          return true;
        }
      }
      return false;
    });
  }

  private static DescribedPredicate<JavaCall<?>> named(String name) {
    return DescribedPredicate.describe("named " + name, call -> call.getName().equals(name));
  }

  /** No cycles between the control plane's packages. */
  @ArchTest
  static final ArchRule noPackageCycles =
      slices().matching("io.kvfleet.control.(*)..").should().beFreeOfCycles();
}
