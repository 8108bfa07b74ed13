package dev.gantry.common;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import java.time.Clock;
import java.time.Instant;
import java.time.LocalDateTime;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The wall-clock predicate of {@link CorePurityTest} catches each way of reading the clock. */
class CorePurityRulesCanFailTest {

    static final class InstantNow {
        Object read() {
            return Instant.now();
        }
    }

    static final class CurrentTimeMillis {
        long read() {
            return System.currentTimeMillis();
        }
    }

    static final class SystemClock {
        Object read() {
            return Clock.systemUTC();
        }
    }

    static final class LocalNow {
        Object read() {
            return LocalDateTime.now();
        }
    }

    @ParameterizedTest(name = "{0} is caught")
    @ValueSource(classes = {InstantNow.class, CurrentTimeMillis.class, SystemClock.class, LocalNow.class})
    void noWallClock_catchesAClockReader(Class<?> reader) {
        JavaClasses classes = new ClassFileImporter().importClasses(reader);
        assertThrows(AssertionError.class,
                () -> noClasses().should().callMethodWhere(CorePurityTest.readsTheWallClock()).check(classes));
    }
}
