package dev.gantry.scheduler.runtime;

import dev.gantry.api.v1.JobResult;
import dev.gantry.common.config.ClusterConfig;
import dev.gantry.scheduler.access.Requester;
import dev.gantry.scheduler.control.JobEdits;
import dev.gantry.scheduler.control.SuspendEdits;
import dev.gantry.scheduler.lifecycle.Suspension;
import dev.gantry.scheduler.model.ClusterState;
import dev.gantry.scheduler.model.JobRecord;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * scontrol suspend and resume on the controller thread ({@link SuspendEdits} decides). A suspended job's processes are
 * stopped on every node (agent SuspendJob), it stops being charged usage, and its CPUs go back to the pool — the
 * allocation it publishes keeps only memory and GRES, so select-svc may place other jobs there; gang-svc, which sees it
 * suspended by someone else, leaves it out of rotation, and the controller refuses gang-svc's resumes of it. Resume
 * reverses each step once the CPUs are free. Each id is answered on its own; changes are durable before the answer.
 */
public final class ManualSuspension {

    /** The caller is neither an operator nor an administrator: the whole call is refused (PERMISSION_DENIED). */
    public static final class AccessDenied extends RuntimeException {
        public AccessDenied(String user, String command) {
            super(command + ": only operators and administrators may (" + (user.isEmpty() ? "(none)" : user)
                    + " is neither): " + JobEdits.DENIED, null, false, false);
        }
    }

    private final ClusterConfig config;
    private final JobCommands commands;
    private final LifecycleApplier applier;
    private final ClusterState state;
    private final InstantSource clock;

    ManualSuspension(ClusterConfig config, ClusterState state, JobCommands commands, LifecycleApplier applier,
            InstantSource clock) {
        this.config = config;
        this.state = state;
        this.commands = commands;
        this.applier = applier;
        this.clock = clock;
    }

    public CompletableFuture<List<JobResult>> suspend(List<Long> ids, String user) {
        return suspend(ids, Requester.of(config, user, -1));
    }

    public CompletableFuture<List<JobResult>> resume(List<Long> ids, String user) {
        return resume(ids, Requester.of(config, user, -1));
    }

    /** scontrol suspend as {@code who}: refused whole (AccessDenied) unless an operator or administrator. */
    public CompletableFuture<List<JobResult>> suspend(List<Long> ids, Requester who) {
        return each(ids, who, true);
    }

    public CompletableFuture<List<JobResult>> resume(List<Long> ids, Requester who) {
        return each(ids, who, false);
    }

    private CompletableFuture<List<JobResult>> each(List<Long> ids, Requester who, boolean suspend) {
        String command = suspend ? "scontrol suspend" : "scontrol resume";
        return commands.each(ids, who, suspend ? "suspended" : "resumed", () -> {
            if (!who.privileged()) {
                Audit.refused(clock.instant(), who, command + " " + ids);
                throw new AccessDenied(who.user(), command);
            }
            return new JobEdits.Caller(who.user(), true);
        }, (j, caller) -> suspend ? SuspendEdits.suspend(j, caller, clock.instant())
                : SuspendEdits.resume(j, caller, clock.instant(), state),
                (before, after) -> apply(before, after, suspend, clock.instant()));
    }

    /** Stores, publishes (the allocation and its nodes' CPU counts) and tells the agents (controller thread). */
    private CompletableFuture<Void> apply(JobRecord before, JobRecord after, boolean suspend, Instant now) {
        return applier.apply(Suspension.manual(before, after, suspend, now));
    }
}
