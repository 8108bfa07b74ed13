package dev.gantry.cli;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import dev.gantry.common.arch.CoreRules;
import java.time.ZoneId;
import org.junit.jupiter.api.Test;

/**
 * The cores (option parsing, script reading, report formats and layouts) follow the shared {@link CoreRules}: no gRPC,
 * no framework, no threads, no wall clock, no API messages: they work on the values of dev.gantry.cli.model and
 * sbatch's BatchJob. Commands in dev.gantry.cli.command, the controller package and dev.gantry.cli.api (which maps
 * the API's messages to those values and back) are the adapters that bring those in. The commands' own rule: no
 * default zone in a core (the zone comes in, so tests fix it).
 */
class ArchitectureTest {

    private static final String[] CORE = {
        "dev.gantry.cli.sbatch..", "dev.gantry.cli.squeue..", "dev.gantry.cli.sinfo..",
        "dev.gantry.cli.scontrol..", "dev.gantry.cli.text..", "dev.gantry.cli.getopt..", "dev.gantry.cli.sprio..",
        "dev.gantry.cli.sshare..", "dev.gantry.cli.model..", "dev.gantry.cli.supervision.."};

    private static final JavaClasses CLASSES = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("dev.gantry.cli");

    @Test
    void coresFollowTheSharedRules() {
        CoreRules.of(CORE).check(CLASSES);
    }

    @Test
    void coresDoNotReadTheDefaultZone() {
        noClasses().that().resideInAnyPackage(CORE)
                .should().callMethod(ZoneId.class, "systemDefault")
                .check(CLASSES);
    }

    @Test
    void coresDoNotDependOnCommandsOrTheController() {
        noClasses().that().resideInAnyPackage(CORE)
                .should().dependOnClassesThat().resideInAnyPackage("dev.gantry.cli.command..", "dev.gantry.cli.controller..")
                .check(CLASSES);
    }
}
