package dev.gantry.agent;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import dev.gantry.common.arch.CoreRules;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Decision logic lives in pure packages: the shared {@link CoreRules} (no gRPC, Micronaut or Micrometer, no threads, no
 * wall clock: time comes in as an InstantSource, no API messages), and, the agent's own rule, no I/O or native calls.
 */
class ArchitectureTest {

    private static final String[] PURE = {"dev.gantry.agent.job..", "dev.gantry.agent.node.."};

    private static JavaClasses classes;

    @BeforeAll
    static void importClasses() {
        classes = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS).importPackages("dev.gantry.agent");
    }

    @Test
    void purePackages_followTheSharedRules() {
        CoreRules.of(PURE).check(classes);
    }

    @Test
    void purePackages_doNoIoAndNoNativeCalls() {
        noClasses().that().resideInAnyPackage(PURE)
                .should().dependOnClassesThat().resideInAnyPackage("java.io..", "java.net..", "com.sun.jna..")
                .orShould().dependOnClassesThat().areAssignableTo(ProcessBuilder.class)
                .orShould().dependOnClassesThat().haveFullyQualifiedName("java.nio.file.Files")
                .check(classes);
    }

    @Test
    void processControl_andCores_doNotDependOnAdaptersOrWiring() {
        noClasses().that().resideInAnyPackage("dev.gantry.agent.job..", "dev.gantry.agent.node..", "dev.gantry.agent.process..")
                .should().dependOnClassesThat().resideInAnyPackage("dev.gantry.agent.grpc..", "dev.gantry.agent.runtime..")
                .check(classes);
    }
}
