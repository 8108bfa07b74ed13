package dev.gantry.common.arch;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaAccess;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.CompositeArchRule;
import java.util.Arrays;
import java.util.List;
import java.util.Set;

/**
 * The rules every core package of Gantry follows, defined once (docs/style.md rules 1 and 10; docs/ARCHITECTURE.md,
 * "Pure cores and the ArchUnit rules"). A core package
 * <ul>
 *   <li>uses no gRPC, framework, metrics or database ({@link #noFrameworks});</li>
 *   <li>starts, sleeps on or joins no thread and uses no {@code java.util.concurrent} ({@link #noThreads}); asking
 *       which thread it runs on (a single-writer check) is allowed;</li>
 *   <li>never reads the wall clock: time comes in as a value or an {@code InstantSource} ({@link #noWallClock});</li>
 *   <li>works on domain values, not the API's generated messages ({@link #noApiMessages}).</li>
 * </ul>
 * Each module's {@code ArchitectureTest} names its core packages and checks these with {@link #check}; a rule only one
 * module has (no I/O in the node agent's cores, who may write the controller's state, …) stays in that module's test.
 * Published as common's test-jar (type {@code test-jar}), so the modules' tests share this class, not copies of it.
 */
public final class CoreRules {

    /** gRPC, frameworks (Micronaut, dependency injection), metrics, JDBC. */
    static final String[] FRAMEWORKS = {"io.grpc..", "io.micronaut..", "jakarta.inject..", "io.micrometer..", "java.sql.."};

    /** The API's generated messages (gantry.v1) and the protobuf runtime. */
    static final String[] API_MESSAGES = {"dev.gantry.api..", "com.google.protobuf.."};

    private static final Set<String> THREAD_CONTROL = Set.of("<init>", "start", "startVirtualThread", "ofPlatform",
            "ofVirtual", "sleep", "join");

    private final String[] core;
    private final String[] apiMessagesAllowed;

    private CoreRules(String[] core, String[] apiMessagesAllowed) {
        if (core.length == 0) {
            throw new IllegalArgumentException("name at least one core package");
        }
        this.core = core.clone();
        this.apiMessagesAllowed = apiMessagesAllowed.clone();
    }

    /** The rules for these core packages (ArchUnit package patterns, e.g. {@code "dev.gantry.select.model.."}). */
    public static CoreRules of(String... corePackages) {
        return new CoreRules(corePackages, new String[0]);
    }

    /**
     * The same rules, except that the classes in {@code packages} may still use the API's messages: a debt named where
     * it is checked, so the list can only shrink (the other rules still hold there).
     */
    public CoreRules allowingApiMessagesIn(String... packages) {
        return new CoreRules(core, packages);
    }

    public ArchRule noFrameworks() {
        return noClasses().that().resideInAnyPackage(core)
                .should().dependOnClassesThat().resideInAnyPackage(FRAMEWORKS)
                .because("a core is plain Java: the runtime layer brings gRPC, Micronaut, metrics and the database"
                        + " (docs/style.md rule 10)");
    }

    public ArchRule noThreads() {
        return noClasses().that().resideInAnyPackage(core)
                .should().dependOnClassesThat().resideInAPackage("java.util.concurrent..")
                .orShould().beAssignableTo(Thread.class)
                .orShould().accessTargetWhere(controlsAThread())
                .because("a core decides on one thread and returns; the runtime owns threads (docs/style.md rule 10)");
    }

    public ArchRule noWallClock() {
        return noClasses().that().resideInAnyPackage(core)
                .should().accessTargetWhere(readsTheWallClock())
                .because("time comes in as an argument or an InstantSource (docs/style.md rule 1)");
    }

    public ArchRule noApiMessages() {
        var cores = noClasses().that().resideInAnyPackage(core);
        var checked = apiMessagesAllowed.length == 0 ? cores : cores.and().resideOutsideOfPackages(apiMessagesAllowed);
        return checked.should().dependOnClassesThat().resideInAnyPackage(API_MESSAGES)
                .because("a core works on domain values; adapters map the API's messages to them (docs/style.md rule 10)");
    }

    /** Every rule above. */
    public List<ArchRule> all() {
        return List.of(noFrameworks(), noThreads(), noWallClock(), noApiMessages());
    }

    /** Checks every rule and reports every violation of each together. */
    public void check(JavaClasses classes) {
        CompositeArchRule.of(all()).check(classes);
    }

    /**
     * A call or method reference that reads the wall clock: {@code System.currentTimeMillis()} or {@code nanoTime()},
     * any {@code java.time} type's {@code now(…)}, {@code Clock.system…()}, {@code InstantSource.system()}.
     */
    public static DescribedPredicate<JavaAccess<?>> readsTheWallClock() {
        return DescribedPredicate.describe("reads the wall clock (Instant.now(), System.currentTimeMillis(), ...)",
                access -> {
                    String owner = access.getTargetOwner().getName();
                    String name = access.getName();
                    return (owner.equals("java.lang.System") && (name.equals("currentTimeMillis") || name.equals("nanoTime")))
                            || (owner.startsWith("java.time.") && name.equals("now"))
                            || (owner.equals("java.time.Clock") && name.startsWith("system"))
                            || (owner.equals("java.time.InstantSource") && name.equals("system"));
                });
    }

    /** A call or reference that makes, starts, sleeps on or joins a thread ({@code Thread.currentThread()} is not one). */
    static DescribedPredicate<JavaAccess<?>> controlsAThread() {
        return DescribedPredicate.describe("makes, starts, sleeps on or joins a thread",
                access -> access.getTargetOwner().isAssignableTo(Thread.class) && THREAD_CONTROL.contains(access.getName()));
    }

    @Override
    public String toString() {
        return "CoreRules" + Arrays.toString(core)
                + (apiMessagesAllowed.length == 0 ? "" : " (API messages still in " + Arrays.toString(apiMessagesAllowed) + ")");
    }
}
