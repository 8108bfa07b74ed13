package dev.gantry.select;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import dev.gantry.common.arch.CoreRules;
import org.junit.jupiter.api.Test;

/**
 * The placement core is pure: the shared {@link CoreRules} (no gRPC, framework, metrics, threads, wall clock or API
 * messages; docs/style.md rules 1 and 10), and its packages depend on each other only downwards.
 */
class ArchitectureTest {

    private static final String[] CORE = {"dev.gantry.select.model..", "dev.gantry.select.placement..",
            "dev.gantry.select.profile..", "dev.gantry.select.preempt.."};

    private final JavaClasses classes = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("dev.gantry.select");

    @Test
    void coreFollowsTheSharedRules() {
        CoreRules.of(CORE).check(classes);
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
