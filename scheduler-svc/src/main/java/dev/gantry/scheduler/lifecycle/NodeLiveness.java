package dev.gantry.scheduler.lifecycle;

import dev.gantry.scheduler.model.JobRecord;
import dev.gantry.scheduler.model.JobState;
import dev.gantry.scheduler.model.NodeRecord;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.LongFunction;

/**
 * A node's agent registers, heartbeats, or stops answering (Slurm's SlurmdTimeout,
 * https://slurm.schedmd.com/slurm.conf.html#OPT_SlurmdTimeout). The jobs of a node that stops answering are decided
 * by {@code cycle.NodeFailurePolicy} and {@link JobEnding#nodeDown}.
 *
 * <p><b>Judged fairly.</b> Silence counts from the later of the node's last heartbeat and the moment the controller
 * itself could run again ({@code watchingSince}: its start, a takeover, or the end of a pause it saw on its own
 * monotonic clock): a controller that was frozen, restarted or took over gives every node a fresh SlurmdTimeout
 * window before setting any DOWN. A node set DOWN for not responding is not revived by a heartbeat: its agent is told
 * to register again, and the registration, which lists its runs, reconciles them and returns the node to service
 * (Slurm's ReturnToService=1 for a node DOWN for not responding).
 */
public final class NodeLiveness {

    private NodeLiveness() {}

    /** The node's agent registered: its new record, published. */
    public static Decision registered(NodeRecord updated) {
        return Decision.ofNode(updated, new Effect.PublishNode(updated.name()));
    }

    /**
     * Whether the agent of {@code n} must register (again) before its heartbeats count: the controller does not know
     * it (it restarted or took over), or set it DOWN for not responding (it must list its runs for reconciliation
     * first, as slurmd answers REQUEST_NODE_REGISTRATION_STATUS).
     */
    public static boolean mustRegister(NodeRecord n) {
        return n == null || !n.registered() || n.notResponding();
    }

    /** A heartbeat at {@code now} of a registered, responding node ({@link #mustRegister} false): it was seen. */
    public static Decision heartbeat(NodeRecord n, Instant now) {
        return Decision.ofNode(n.seenAt(now));
    }

    /**
     * The node stops taking jobs until its agent registers again (DOWN, not responding, with {@code why}).
     *
     * @param publish whether the change is published now (a failed launch leaves that to its requeue or end)
     */
    public static Decision notResponding(NodeRecord n, String why, boolean publish) {
        NodeRecord down = n.notRespondingSince(why);
        return publish ? Decision.ofNode(down, new Effect.PublishNode(n.name())) : Decision.ofNode(down);
    }

    /**
     * Whether node {@code n}, responding so far, has been silent for longer than {@code slurmdTimeout} at {@code now},
     * silence counting from the later of its last heartbeat and {@code watchingSince} (when the controller could last
     * start watching: its start, a takeover, the end of a pause of its own). A node whose agent has not registered
     * with this controller is judged only while it holds jobs (loaded at start as running there): its agent gets one
     * window from the start to come back, as slurmctld gives the nodes of its saved state; an idle one stays UNKNOWN.
     */
    public static boolean silentTooLong(NodeRecord n, Instant watchingSince, Duration slurmdTimeout, Instant now) {
        if (n.notResponding()) {
            return false;
        }
        Instant from;
        if (n.registered() && n.lastSeen() != null) {
            from = n.lastSeen().isAfter(watchingSince) ? n.lastSeen() : watchingSince;
        } else if (!n.registered() && (n.allocCpus() > 0 || n.allocMemoryMb() > 0)) {
            from = watchingSince;
        } else {
            return false;
        }
        return from.plus(slurmdTimeout).isBefore(now);
    }

    /**
     * The shortest gap between two of the controller's periodic ticks that counts as a pause of the controller (it
     * could not run: stopped, starved, a long collection): three tick periods, and at least one heartbeat interval. A
     * shorter gap cannot make a healthy node look silent for SlurmdTimeout (three heartbeat intervals or more).
     */
    public static Duration pauseThreshold(Duration tickPeriod, Duration heartbeatInterval) {
        Duration ticks = tickPeriod.multipliedBy(3);
        return ticks.compareTo(heartbeatInterval) >= 0 ? ticks : heartbeatInterval;
    }

    /** Whether a gap of {@code gap} between two ticks is a pause of the controller ({@link #pauseThreshold}). */
    public static boolean isPause(Duration gap, Duration threshold) {
        return gap.compareTo(threshold) > 0;
    }

    /** A run an agent lists that the controller no longer gives its node: to terminate, naming that run. */
    public record Orphan(long jobId, int run, String why) {}

    /**
     * The runs a node's agent lists in a heartbeat (job id to run; {@link JobExit#UNNAMED_RUN} when it named none)
     * that the controller no longer gives {@code node}, in job id order: a job it does not know, one that is over (and
     * no longer completing), back in the queue, or not allocated to that node, and another run of a job than its
     * current one. Left alone: a completing job (its terminate is already under way and retried), and an earlier run of
     * a job whose current run is allocated to that node (the agent ends the earlier run itself when the current
     * run's launch arrives, and a terminate could race that launch).
     */
    public static List<Orphan> orphans(String node, Map<Long, Integer> listed, LongFunction<JobRecord> jobs) {
        List<Orphan> out = new ArrayList<>();
        new TreeMap<>(listed).forEach((id, run) -> {
            JobRecord j = jobs.apply(id);
            String why = j == null ? "unknown to the controller"
                    : j.completing() ? null
                    : j.state().isFinished() ? "over (" + j.state() + ")"
                    : j.state() == JobState.PENDING ? "back in the queue"
                    : !j.nodeNames().contains(node) ? "not allocated to " + node
                    : JobExit.ofCurrentRun(j, run) ? null
                    : run < j.controls().restartCount() ? null
                    : "run " + run + " is not its current run " + j.controls().restartCount();
            if (why != null) {
                out.add(new Orphan(id, run, why));
            }
        });
        return out;
    }

    /**
     * Whether job {@code j}, held on a node whose agent's heartbeat does not list it, has been there long enough for
     * that to mean its part there is gone: it started more than {@code grace} before {@code now}. A younger one may be
     * a launch the heartbeat was built before (slurmctld's _purge_missing_jobs spares recently started jobs the same
     * way, by BatchStartTimeout).
     */
    public static boolean missingLongEnough(JobRecord j, Duration grace, Instant now) {
        return j.startTime() != null && j.startTime().plus(grace).isBefore(now);
    }
}
