package dev.gantry.common;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaCall;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

/**
 * The parsing and formatting packages of common are plain Java: no framework, no metrics, no gRPC, and no
 * wall clock (time comes in as an argument or an InstantSource), so every service and the CLI can use them and
 * tests can fix the time. Credentials take an InstantSource too.
 */
@AnalyzeClasses(packages = "dev.gantry.common", importOptions = ImportOption.DoNotIncludeTests.class)
class CorePurityTest {

    private static final String[] PURE = {
        "dev.gantry.common.hostlist..", "dev.gantry.common.units..", "dev.gantry.common.config..",
        "dev.gantry.common.resources..", "dev.gantry.common.overlap..", "dev.gantry.common.auth..",
        "dev.gantry.common.job.."
    };

    @ArchTest
    static final ArchRule pureOfFrameworks = noClasses()
            .that().resideInAnyPackage(PURE)
            .should().dependOnClassesThat().resideInAnyPackage("io.grpc..", "io.micronaut..", "io.micrometer..")
            .because("hostlist, units and config are used by every service and the CLI, without a framework");

    @ArchTest
    static final ArchRule noWallClock = noClasses()
            .that().resideInAnyPackage(PURE)
            .or().resideInAPackage("dev.gantry.common.credential..")
            .should().callMethodWhere(readsTheWallClock())
            .because("time comes in as an argument or an InstantSource (docs/style.md rule 1)");

    static DescribedPredicate<JavaCall<?>> readsTheWallClock() {
        return DescribedPredicate.describe("reads the wall clock (Instant.now(), System.currentTimeMillis(), ...)",
                call -> {
                    String owner = call.getTargetOwner().getName();
                    String name = call.getName();
                    return (owner.equals("java.lang.System") && (name.equals("currentTimeMillis") || name.equals("nanoTime")))
                            || (owner.startsWith("java.time.") && name.equals("now"))
                            || (owner.equals("java.time.Clock") && name.startsWith("system"))
                            || (owner.equals("java.time.InstantSource") && name.equals("system"));
                });
    }
}
