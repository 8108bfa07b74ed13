package dev.gantry.agent;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.time.Clock;
import java.time.Instant;
import java.time.InstantSource;
import java.time.LocalDateTime;
import java.time.ZonedDateTime;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Decision logic lives in pure packages: no gRPC, Micronaut or Micrometer, no threads, no I/O and no wall clock
 * (time comes in as an InstantSource).
 */
class ArchitectureTest {

    private static final String[] PURE = {"dev.gantry.agent.job..", "dev.gantry.agent.node.."};

    private static JavaClasses classes;

    @BeforeAll
    static void importClasses() {
        classes = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS).importPackages("dev.gantry.agent");
    }

    @Test
    void purePackages_useNoFrameworks() {
        noClasses().that().resideInAnyPackage(PURE)
                .should().dependOnClassesThat().resideInAnyPackage("io.grpc..", "io.micronaut..", "io.micrometer..", "jakarta.inject..", "com.sun.jna..")
                .check(classes);
    }

    @Test
    void purePackages_startNoThreadsAndDoNoIo() {
        noClasses().that().resideInAnyPackage(PURE)
                .should().dependOnClassesThat().resideInAnyPackage("java.util.concurrent..", "java.io..", "java.net..")
                .orShould().dependOnClassesThat().areAssignableTo(Thread.class)
                .orShould().dependOnClassesThat().areAssignableTo(ProcessBuilder.class)
                .orShould().dependOnClassesThat().haveFullyQualifiedName("java.nio.file.Files")
                .check(classes);
    }

    @Test
    void purePackages_readNoWallClock() {
        noClasses().that().resideInAnyPackage(PURE)
                .should().callMethod(Instant.class, "now")
                .orShould().callMethod(System.class, "currentTimeMillis")
                .orShould().callMethod(System.class, "nanoTime")
                .orShould().callMethod(Clock.class, "systemUTC")
                .orShould().callMethod(Clock.class, "systemDefaultZone")
                .orShould().callMethod(LocalDateTime.class, "now")
                .orShould().callMethod(ZonedDateTime.class, "now")
                .orShould().callMethod(InstantSource.class, "system")
                .check(classes);
    }

    @Test
    void processControl_andCores_doNotDependOnAdaptersOrWiring() {
        noClasses().that().resideInAnyPackage("dev.gantry.agent.job..", "dev.gantry.agent.node..", "dev.gantry.agent.process..")
                .should().dependOnClassesThat().resideInAnyPackage("dev.gantry.agent.grpc..", "dev.gantry.agent.runtime..")
                .check(classes);
    }
}
