package dev.gantry.scheduler;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaAccess;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import dev.gantry.common.arch.CoreRules;
import dev.gantry.scheduler.model.ClusterState;
import org.junit.jupiter.api.Test;

/**
 * Decision logic stays pure: the core packages follow the shared {@link CoreRules} (no gRPC, framework, metrics,
 * database, threads, wall clock or API messages), and the lifecycle's decisions reach the state in one place.
 */
class ArchitectureTest {

    static final String[] CORE = {"dev.gantry.scheduler.model..", "dev.gantry.scheduler.submit..",
        "dev.gantry.scheduler.queue..", "dev.gantry.scheduler.cycle..",
        "dev.gantry.scheduler.control..", "dev.gantry.scheduler.priority..", "dev.gantry.scheduler.preempt..",
        "dev.gantry.scheduler.access..", "dev.gantry.scheduler.limits..", "dev.gantry.scheduler.lifecycle..", "dev.gantry.scheduler.lease.."};

    private final JavaClasses classes = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS).importPackages("dev.gantry.scheduler");

    @Test
    void coreFollowsTheSharedRules() {
        CoreRules.of(CORE).check(classes);
    }

    private static final java.util.Set<String> WRITES = java.util.Set.of("put", "putNode", "purge");

    /** The lifecycle's decisions enter the controller's state in one place, in one order (calls and method references). */
    @Test
    void onlyTheLifecycleApplierWritesTheClusterState() {
        ArchRule rule = noClasses().that().resideOutsideOfPackage("dev.gantry.scheduler.model..")
                .and().doNotHaveFullyQualifiedName("dev.gantry.scheduler.runtime.LifecycleApplier")
                .should().accessTargetWhere(DescribedPredicate.describe("a write of ClusterState (put, putNode, purge)",
                        (JavaAccess<?> access) -> access.getTargetOwner().isEquivalentTo(ClusterState.class)
                                && WRITES.contains(access.getTarget().getName())));
        rule.check(classes);
    }
}
