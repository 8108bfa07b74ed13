package dev.gantry.common;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import dev.gantry.common.arch.CoreRules;
import org.junit.jupiter.api.Test;

/**
 * The parsing and formatting packages of common are cores ({@link CoreRules}): no framework, metrics, gRPC, threads,
 * wall clock or API messages, so every service and the CLI can use them and tests can fix the time. Credentials sign
 * and verify the API's launch messages (so they use protobuf), but take the time from an InstantSource too.
 */
class CorePurityTest {

    private static final String[] PURE = {
        "dev.gantry.common.hostlist..", "dev.gantry.common.units..", "dev.gantry.common.config..",
        "dev.gantry.common.resources..", "dev.gantry.common.overlap..", "dev.gantry.common.auth..",
        "dev.gantry.common.job.."
    };

    private static final JavaClasses CLASSES = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS).importPackages("dev.gantry.common");

    @Test
    void coreFollowsTheSharedRules() {
        CoreRules.of(PURE).check(CLASSES);
    }

    @Test
    void credentialsNeverReadTheWallClock() {
        CoreRules.of("dev.gantry.common.credential..").noWallClock().check(CLASSES);
    }
}
