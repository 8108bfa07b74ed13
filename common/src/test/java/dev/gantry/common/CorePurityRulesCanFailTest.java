package dev.gantry.common;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.lang.ArchRule;
import dev.gantry.common.arch.CoreRules;
import java.time.Clock;
import java.time.Instant;
import java.time.LocalDateTime;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Each of the shared {@link CoreRules} catches a class that breaks it, and none catches a class that keeps them all. */
class CorePurityRulesCanFailTest {

    private static final CoreRules RULES = CoreRules.of("dev.gantry.common..");

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

    static final class ClockReference {
        Supplier<Instant> read() {
            return Instant::now;
        }
    }

    static final class UsesGrpc {
        Object status() {
            return io.grpc.Status.OK;
        }
    }

    static final class StartsAThread {
        void run() {
            new Thread(() -> { }).start();
        }
    }

    static final class Sleeps {
        void pause() throws InterruptedException {
            Thread.sleep(1);
        }
    }

    static final class UsesAnExecutor {
        Object pool() {
            return java.util.concurrent.Executors.newSingleThreadExecutor();
        }
    }

    static final class UsesApiMessages {
        Object spec() {
            return dev.gantry.api.v1.JobSpec.getDefaultInstance();
        }
    }

    static final class UsesProtobuf {
        Object time() {
            return com.google.protobuf.Timestamp.getDefaultInstance();
        }
    }

    /** Time as an argument, and the single-writer check a core may make. */
    static final class Pure {
        long plus(Instant now, long seconds) {
            return now.plusSeconds(seconds).getEpochSecond();
        }

        boolean owns(Thread owner) {
            return Thread.currentThread() == owner;
        }
    }

    static Stream<Arguments> violations() {
        Function<CoreRules, ArchRule> clock = CoreRules::noWallClock;
        Function<CoreRules, ArchRule> frameworks = CoreRules::noFrameworks;
        Function<CoreRules, ArchRule> threads = CoreRules::noThreads;
        Function<CoreRules, ArchRule> messages = CoreRules::noApiMessages;
        return Stream.of(
                Arguments.of("noWallClock", clock, InstantNow.class),
                Arguments.of("noWallClock", clock, CurrentTimeMillis.class),
                Arguments.of("noWallClock", clock, SystemClock.class),
                Arguments.of("noWallClock", clock, LocalNow.class),
                Arguments.of("noWallClock", clock, ClockReference.class),
                Arguments.of("noFrameworks", frameworks, UsesGrpc.class),
                Arguments.of("noThreads", threads, StartsAThread.class),
                Arguments.of("noThreads", threads, Sleeps.class),
                Arguments.of("noThreads", threads, UsesAnExecutor.class),
                Arguments.of("noApiMessages", messages, UsesApiMessages.class),
                Arguments.of("noApiMessages", messages, UsesProtobuf.class));
    }

    @ParameterizedTest(name = "{0} catches {2}")
    @MethodSource("violations")
    void eachRule_catchesAClassThatBreaksIt(String rule, Function<CoreRules, ArchRule> select, Class<?> violator) {
        JavaClasses classes = new ClassFileImporter().importClasses(violator);
        AssertionError caught = assertThrows(AssertionError.class, () -> select.apply(RULES).check(classes));
        assertTrue(caught.getMessage().contains(violator.getName()), caught.getMessage()); // a violation, not an empty rule
        assertThrows(AssertionError.class, () -> RULES.check(classes), "check() runs every rule");
    }

    @Test
    void aClassThatKeepsTheRules_passesThemAll() {
        assertDoesNotThrow(() -> RULES.check(new ClassFileImporter().importClasses(Pure.class)));
    }

    @Test
    void apiMessagesAllowedInAPackage_areNotCaughtThere_andTheOtherRulesStillHold() {
        JavaClasses classes = new ClassFileImporter().importClasses(UsesProtobuf.class, StartsAThread.class);
        CoreRules allowing = CoreRules.of("dev.gantry..").allowingApiMessagesIn("dev.gantry.common..");
        assertDoesNotThrow(() -> allowing.noApiMessages().allowEmptyShould(true).check(classes));
        AssertionError caught = assertThrows(AssertionError.class, () -> allowing.noThreads().check(classes));
        assertTrue(caught.getMessage().contains(StartsAThread.class.getName()), caught.getMessage());
    }
}
