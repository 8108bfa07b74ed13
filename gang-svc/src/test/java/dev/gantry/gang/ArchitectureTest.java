package dev.gantry.gang;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import dev.gantry.common.arch.CoreRules;
import org.junit.jupiter.api.Test;

/**
 * The gang model and the timeslicer core are pure: the shared {@link CoreRules} (no gRPC, framework, metrics, threads,
 * wall clock or API messages; docs/style.md, rules 1 and 10), and no way back to the adapters.
 */
class ArchitectureTest {

    private static final String[] CORE = {"dev.gantry.gang.model..", "dev.gantry.gang.slice.."};

    private final JavaClasses classes = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("dev.gantry.gang");

    @Test
    void coreFollowsTheSharedRules() {
        CoreRules.of(CORE).check(classes);
    }

    @Test
    void modelDoesNotDependOnAdapters() {
        noClasses().that().resideInAnyPackage(CORE)
                .should().dependOnClassesThat().resideInAnyPackage("dev.gantry.gang.grpc..", "dev.gantry.gang.runtime..")
                .check(classes);
    }
}
