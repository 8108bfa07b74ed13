package dev.gantry.gang;

import static com.tngtech.archunit.core.domain.JavaCall.Predicates.target;
import static com.tngtech.archunit.core.domain.properties.HasName.Predicates.name;
import static com.tngtech.archunit.core.domain.properties.HasOwner.Predicates.With.owner;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/**
 * The gang model and the timeslicer core are pure: no gRPC, framework, metrics, threads or wall clock
 * (docs/style.md, rules 1 and 10).
 */
class ArchitectureTest {

    private static final String[] CORE = {"dev.gantry.gang.model..", "dev.gantry.gang.slice.."};

    private final JavaClasses classes = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("dev.gantry.gang");

    @Test
    void modelUsesNoGrpcMicronautOrMicrometer() {
        noClasses().that().resideInAnyPackage(CORE)
                .should().dependOnClassesThat().resideInAnyPackage("io.grpc..", "io.micronaut..", "io.micrometer..", "jakarta.inject..")
                .check(classes);
    }

    @Test
    void modelStartsNoThreadsAndUsesNoConcurrency() {
        noClasses().that().resideInAnyPackage(CORE)
                .should().dependOnClassesThat().areAssignableTo(Thread.class)
                .orShould().dependOnClassesThat().resideInAPackage("java.util.concurrent..")
                .check(classes);
    }

    @Test
    void modelNeverReadsTheWallClock() {
        noClasses().that().resideInAnyPackage(CORE)
                .should().callMethodWhere(target(name("now")).and(target(owner(JavaClass.Predicates.resideInAPackage("java.time")))))
                .orShould().callMethod(System.class, "currentTimeMillis")
                .orShould().callMethod(System.class, "nanoTime")
                .orShould().callMethodWhere(target(name("systemUTC")).or(target(name("systemDefaultZone"))).or(target(name("system"))))
                .check(classes);
    }

    @Test
    void coreWorksOnDomainValuesNotMessages() {
        noClasses().that().resideInAnyPackage(CORE)
                .should().dependOnClassesThat().resideInAnyPackage("dev.gantry.api..", "com.google.protobuf..")
                .check(classes);
    }

    @Test
    void modelDoesNotDependOnAdapters() {
        noClasses().that().resideInAnyPackage(CORE)
                .should().dependOnClassesThat().resideInAnyPackage("dev.gantry.gang.grpc..", "dev.gantry.gang.runtime..")
                .check(classes);
    }
}
