package dev.gantry.cli;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.time.Clock;
import java.time.Instant;
import java.time.InstantSource;
import java.time.LocalDateTime;
import java.time.ZoneId;
import org.junit.jupiter.api.Test;

/**
 * The cores (option parsing, script reading, report formats and layouts) are pure: no gRPC, no framework,
 * no threads, no wall clock, no default zone. Commands in dev.gantry.cli.command and the controller package
 * are the adapters that bring those in.
 */
class ArchitectureTest {

    private static final String[] CORE = {
        "dev.gantry.cli.sbatch..", "dev.gantry.cli.squeue..", "dev.gantry.cli.sinfo..",
        "dev.gantry.cli.scontrol..", "dev.gantry.cli.text..", "dev.gantry.cli.getopt..", "dev.gantry.cli.sprio..",
        "dev.gantry.cli.sshare.."};

    private static final JavaClasses CLASSES = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("dev.gantry.cli");

    @Test
    void coresDoNotUseGrpcOrFrameworks() {
        noClasses().that().resideInAnyPackage(CORE)
                .should().dependOnClassesThat().resideInAnyPackage("io.grpc..", "io.micronaut..", "io.micrometer..")
                .check(CLASSES);
    }

    @Test
    void coresDoNotStartThreads() {
        noClasses().that().resideInAnyPackage(CORE)
                .should().dependOnClassesThat().areAssignableTo(Thread.class)
                .check(CLASSES);
    }

    @Test
    void coresDoNotReadTheWallClockOrDefaultZone() {
        noClasses().that().resideInAnyPackage(CORE)
                .should().callMethod(Instant.class, "now")
                .orShould().callMethod(System.class, "currentTimeMillis")
                .orShould().callMethod(InstantSource.class, "system")
                .orShould().callMethod(Clock.class, "systemUTC")
                .orShould().callMethod(Clock.class, "systemDefaultZone")
                .orShould().callMethod(ZoneId.class, "systemDefault")
                .orShould().callMethod(LocalDateTime.class, "now")
                .check(CLASSES);
    }

    @Test
    void coresDoNotDependOnCommandsOrTheController() {
        noClasses().that().resideInAnyPackage(CORE)
                .should().dependOnClassesThat().resideInAnyPackage("dev.gantry.cli.command..", "dev.gantry.cli.controller..")
                .check(CLASSES);
    }
}
