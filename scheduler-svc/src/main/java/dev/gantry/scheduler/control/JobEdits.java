package dev.gantry.scheduler.control;

import dev.gantry.common.job.PendingReason;
import dev.gantry.scheduler.model.JobControls;
import dev.gantry.scheduler.model.JobRecord;
import dev.gantry.scheduler.model.JobState;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * What scontrol hold, uhold, release and top do to a job, as Slurm: each returns the changed job or Slurm's refusal.
 * Who may: a job's own user, or an operator/administrator; an administrator's hold is released only by one. Pure.
 */
public final class JobEdits {
    private JobEdits() {}

    public static final String NOT_PENDING = "Job is no longer pending execution";
    public static final String DENIED = "Access/permission denied";
    public static final String INVALID_ID = "Invalid job id specified";
    public static final String PENDING = "Job is pending execution";
    public static final String DISABLED = "Requested operation is presently disabled";

    /** A changed job, or why not. */
    public sealed interface Edit permits Changed, Refused {}

    public record Changed(JobRecord job) implements Edit {}

    public record Refused(String error) implements Edit {}

    /** Who asks. */
    public record Caller(String user, boolean admin) {
        public boolean owns(JobRecord j) {
            return admin || j.user().equals(user);
        }
    }

    /** scontrol hold (administrator's hold when the caller is one and not {@code userHold}) and uhold. */
    public static Edit hold(JobRecord j, Caller caller, boolean userHold) {
        if (!caller.owns(j)) {
            return new Refused(DENIED);
        }
        if (j.state() != JobState.PENDING || j.completing()) {
            return new Refused(NOT_PENDING);
        }
        JobControls.Hold h = caller.admin() && !userHold ? JobControls.Hold.ADMIN : JobControls.Hold.USER;
        PendingReason reason = h == JobControls.Hold.ADMIN ? PendingReason.HELD_ADMIN : PendingReason.HELD_USER;
        return new Changed(j.toBuilder().controls(j.controls().withHold(h)).pendingReason(reason).forecast(null)
                .build());
    }

    /** scontrol release: lifts a hold (and an administrator's Priority=0). */
    public static Edit release(JobRecord j, Caller caller) {
        if (!caller.owns(j)) {
            return new Refused(DENIED);
        }
        if (j.state() != JobState.PENDING || j.completing()) {
            return new Refused(NOT_PENDING);
        }
        JobControls c = j.controls();
        boolean adminZero = c.adminPriority() && j.priority() == 0;
        if ((c.hold() == JobControls.Hold.ADMIN || adminZero) && !caller.admin()) {
            return new Refused(DENIED);
        }
        JobControls released = c.withHold(JobControls.Hold.NONE);
        if (adminZero) {
            released = released.withAdminPriority(false);
        }
        return new Changed(j.toBuilder().controls(released).pendingReason(PendingReason.NONE).build());
    }

    /**
     * scontrol top: the job takes the highest priority among the caller's pending jobs of the same partition, account
     * and QOS that are ahead of it (or level with it), and each of those moves one place down, made strictly lower
     * where priorities were equal (by raising the ones above by the fewest points); the priorities involved stay fixed (as an administrator's) until changed again.
     *
     * @param pending every pending job
     * @return the jobs whose priority changed (the target first); empty when it is already first
     */
    public static List<JobRecord> top(JobRecord target, Iterable<JobRecord> pending) {
        List<JobRecord> ahead = new ArrayList<>();
        for (JobRecord j : pending) {
            if (j.id() != target.id() && j.state() == JobState.PENDING && j.user().equals(target.user())
                    && j.partition().equals(target.partition())
                    && j.controls().account().equals(target.controls().account())
                    && j.controls().qos().equals(target.controls().qos())
                    && j.priority() >= target.priority()) {
                ahead.add(j);
            }
        }
        if (ahead.isEmpty()) {
            return List.of();
        }
        ahead.sort(Comparator.comparingLong(JobRecord::priority).reversed().thenComparingLong(JobRecord::id));
        List<Long> priorities = new ArrayList<>();
        ahead.forEach(j -> priorities.add(j.priority()));
        priorities.add(target.priority());
        // strictly decreasing, so the new order holds even where priorities were equal: from the bottom up, each
        // at least one above the next
        for (int i = priorities.size() - 2; i >= 0; i--) {
            priorities.set(i, Math.max(priorities.get(i), priorities.get(i + 1) + 1));
        }
        List<JobRecord> out = new ArrayList<>();
        out.add(fixed(target, priorities.get(0)));
        for (int i = 0; i < ahead.size(); i++) {
            out.add(fixed(ahead.get(i), priorities.get(i + 1)));
        }
        return out;
    }

    private static JobRecord fixed(JobRecord j, long priority) {
        return j.toBuilder().priority(priority).controls(j.controls().withAdminPriority(true)).build();
    }

    /** scontrol update Priority= (administrators): fixed from now on; 0 holds the job. */
    public static Edit priority(JobRecord j, Caller caller, long priority) {
        if (!caller.admin()) {
            return new Refused(DENIED);
        }
        if (j.state() != JobState.PENDING || j.completing()) {
            return new Refused(NOT_PENDING);
        }
        return new Changed(j.toBuilder().priority(priority).controls(j.controls().withAdminPriority(true))
                .pendingReason(priority == 0 ? PendingReason.HELD_ADMIN : j.pendingReason()).build());
    }

    /** scontrol update Nice=: negative values only for operators and administrators. */
    public static Edit nice(JobRecord j, Caller caller, int nice) {
        if (!caller.owns(j) || (nice < 0 && !caller.admin())) {
            return new Refused(DENIED);
        }
        if (j.state() != JobState.PENDING || j.completing()) {
            return new Refused(NOT_PENDING);
        }
        return new Changed(j.toBuilder().controls(j.controls().withNice(nice)).build());
    }

    /**
     * scontrol update Dependency=: replaces a pending job's dependencies ("" removes them all). The new list is checked
     * as at submission (it parses, names only jobs that exist, not the job itself); {@code check} does that and throws
     * {@link InvalidControlException} with the field and what is wrong.
     */
    public static Edit dependency(JobRecord j, Caller caller, String text, java.util.function.Consumer<String> check) {
        if (!caller.owns(j)) {
            return new Refused(DENIED);
        }
        if (j.state() != JobState.PENDING || j.completing()) {
            return new Refused(NOT_PENDING);
        }
        String d = text.trim();
        if (!d.isEmpty()) {
            try {
                check.accept(d);
            } catch (InvalidControlException e) {
                return new Refused(e.describe());
            }
        }
        boolean forDependency = j.pendingReason() == PendingReason.DEPENDENCY
                || j.pendingReason() == PendingReason.DEPENDENCY_NEVER_SATISFIED;
        PendingReason reason = forDependency ? PendingReason.NONE : j.pendingReason();
        return new Changed(j.toBuilder().controls(j.controls().withDependency(d)).pendingReason(reason).forecast(null)
                .build());
    }

    /**
     * scontrol update TimeLimit=: users may only lower it; administrators may set anything. Allowed while running
     * (the new limit counts from the start). -1 = UNLIMITED.
     */
    public static Edit timeLimit(JobRecord j, Caller caller, long seconds) {
        if (!caller.owns(j)) {
            return new Refused(DENIED);
        }
        if (j.state().isFinished() || j.completing()) {
            return new Refused("Job/step already completing or completed");
        }
        long current = j.timeLimitSeconds();
        boolean raises = current >= 0 && (seconds < 0 || seconds > current);
        if (raises && !caller.admin()) {
            return new Refused(DENIED);
        }
        return new Changed(j.toBuilder().timeLimitSeconds(seconds).build());
    }
}
