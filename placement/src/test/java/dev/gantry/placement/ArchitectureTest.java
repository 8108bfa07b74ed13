package dev.gantry.placement;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import dev.gantry.common.arch.CoreRules;
import org.junit.jupiter.api.Test;

/**
 * The placement core is pure as a whole: the shared {@link CoreRules} (no gRPC, protobuf, API messages, framework,
 * threads or wall clock), and no other Gantry module.
 */
class ArchitectureTest {

    private final JavaClasses classes = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("dev.gantry.placement");

    @Test
    void theWholeModuleFollowsTheSharedRules() {
        CoreRules.of("dev.gantry.placement..").check(classes);
    }

    @Test
    void dependsOnNoOtherGantryModule() {
        noClasses().should().dependOnClassesThat().resideInAnyPackage("dev.gantry.common..", "dev.gantry.select..",
                        "dev.gantry.scheduler..", "dev.gantry.gang..")
                .check(classes);
    }
}
