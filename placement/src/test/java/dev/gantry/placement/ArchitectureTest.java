package dev.gantry.placement;

import static com.tngtech.archunit.core.domain.JavaCall.Predicates.target;
import static com.tngtech.archunit.core.domain.properties.HasName.Predicates.name;
import static com.tngtech.archunit.core.domain.properties.HasOwner.Predicates.With.owner;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/** The placement core is pure: no gRPC, protobuf, API messages, framework, threads or wall clock. */
class ArchitectureTest {

    private final JavaClasses classes = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("dev.gantry.placement");

    @Test
    void usesNoGrpcProtobufApiOrFramework() {
        noClasses().should().dependOnClassesThat().resideInAnyPackage("io.grpc..", "com.google.protobuf..",
                        "dev.gantry.api..", "io.micronaut..", "io.micrometer..", "jakarta.inject..")
                .check(classes);
    }

    @Test
    void dependsOnNoOtherGantryModule() {
        noClasses().should().dependOnClassesThat().resideInAnyPackage("dev.gantry.common..", "dev.gantry.select..",
                        "dev.gantry.scheduler..", "dev.gantry.gang..")
                .check(classes);
    }

    @Test
    void startsNoThreads() {
        noClasses().should().dependOnClassesThat().areAssignableTo(Thread.class)
                .orShould().dependOnClassesThat().resideInAPackage("java.util.concurrent..")
                .check(classes);
    }

    @Test
    void neverReadsTheWallClock() {
        noClasses().should().callMethodWhere(target(name("now")).and(target(owner(JavaClass.Predicates.resideInAPackage("java.time")))))
                .orShould().callMethod(System.class, "currentTimeMillis")
                .orShould().callMethod(System.class, "nanoTime")
                .check(classes);
    }
}
