package dev.gantry.select;

import static com.tngtech.archunit.core.domain.JavaCall.Predicates.target;
import static com.tngtech.archunit.core.domain.properties.HasName.Predicates.name;
import static com.tngtech.archunit.core.domain.properties.HasOwner.Predicates.With.owner;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/** The placement core is pure: no gRPC, framework, metrics, threads or wall clock (docs/style.md rules 1 and 10). */
class ArchitectureTest {

    private static final String[] CORE = {"dev.gantry.select.model..", "dev.gantry.select.placement..",
            "dev.gantry.select.profile..", "dev.gantry.select.preempt.."};

    private final JavaClasses classes = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("dev.gantry.select");

    @Test
    void coreUsesNoGrpcMicronautOrMicrometer() {
        noClasses().that().resideInAnyPackage(CORE)
                .should().dependOnClassesThat().resideInAnyPackage("io.grpc..", "io.micronaut..", "io.micrometer..", "jakarta.inject..")
                .check(classes);
    }

    @Test
    void coreStartsNoThreadsAndUsesNoConcurrency() {
        noClasses().that().resideInAnyPackage(CORE)
                .should().dependOnClassesThat().areAssignableTo(Thread.class)
                .orShould().dependOnClassesThat().resideInAPackage("java.util.concurrent..")
                .check(classes);
    }

    @Test
    void coreNeverReadsTheWallClock() {
        noClasses().that().resideInAnyPackage(CORE)
                .should().callMethodWhere(target(name("now")).and(target(owner(JavaClass.Predicates.resideInAPackage("java.time")))))
                .orShould().callMethod(System.class, "currentTimeMillis")
                .orShould().callMethod(System.class, "nanoTime")
                .orShould().callMethodWhere(target(name("systemUTC")).or(target(name("systemDefaultZone"))).or(target(name("system"))))
                .check(classes);
    }

    @Test
    void coreWorksOnDomainValuesNotProtoMessages() {
        noClasses().that().resideInAnyPackage(CORE)
                .should().dependOnClassesThat().resideInAnyPackage("dev.gantry.api..", "com.google.protobuf..")
                .check(classes);
    }

    @Test
    void profileDependsOnNothingElseOfSelect() {
        noClasses().that().resideInAPackage("dev.gantry.select.profile..")
                .should().dependOnClassesThat().resideInAnyPackage("dev.gantry.select.placement..", "dev.gantry.select.preempt..",
                        "dev.gantry.select.grpc..", "dev.gantry.select.runtime..")
                .check(classes);
    }

    @Test
    void modelDoesNotDependOnPlacementOrAdapters() {
        noClasses().that().resideInAPackage("dev.gantry.select.model..")
                .should().dependOnClassesThat().resideInAnyPackage("dev.gantry.select.placement..", "dev.gantry.select.profile..", "dev.gantry.select.preempt..", "dev.gantry.select.grpc..",
                        "dev.gantry.select.runtime..")
                .check(classes);
    }
}
