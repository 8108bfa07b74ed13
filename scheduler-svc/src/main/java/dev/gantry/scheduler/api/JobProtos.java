package dev.gantry.scheduler.api;

import com.google.protobuf.Timestamp;
import dev.gantry.api.v1.Gres;
import dev.gantry.api.v1.Job;
import dev.gantry.api.v1.JobHold;
import dev.gantry.api.v1.JobPhase;
import dev.gantry.api.v1.JobView;
import dev.gantry.api.v1.NodeAllocation;
import dev.gantry.common.hostlist.Hostlist;
import dev.gantry.common.job.PendingReason;
import dev.gantry.common.resources.GresSpec;
import dev.gantry.scheduler.model.Forecast;
import dev.gantry.scheduler.model.GresGrant;
import dev.gantry.scheduler.model.JobControls;
import dev.gantry.scheduler.model.JobRecord;
import dev.gantry.scheduler.model.JobState;
import dev.gantry.scheduler.model.NodeSelection;
import dev.gantry.scheduler.model.NodeShare;
import dev.gantry.scheduler.model.ResourceAsk;
import java.time.Instant;
import java.util.List;

/**
 * Maps jobs between the domain ({@link JobRecord}) and the API ({@link Job}). The API form is also the stored
 * form, so {@code fromProto(toProto(j))} equals {@code j}; the submitted request is the job's {@code spec}
 * ({@link JobRequests}).
 *
 * <p>Both carry one {@code reason}, Slurm's Reason= ({@link JobRecord#reason}): a pending job's pending reason, else
 * its end note ("None" for none). Reading it back ({@link #reason}) gives a pending job the pending reason of that
 * name and any other job that end note.
 */
public final class JobProtos {
    private JobProtos() {}

    /** The stored form: what the record holds, nothing computed at a particular time. */
    public static Job toProto(JobRecord j) {
        return builder(j).build();
    }

    /**
     * The stored form without the spec's script and environment, which the store keeps apart (once per content):
     * built without them rather than built whole and then cleared, as every job write makes one.
     */
    public static Job toProtoWithoutTexts(JobRecord j) {
        return builder(j, false).build();
    }

    /**
     * A job as the client API answers at {@code now}: the stored form plus its run time so far
     * ({@code time_used_seconds}, {@link JobRecord#runSeconds}), so every client shows the same one.
     */
    public static Job.Builder answer(JobRecord j, Instant now) {
        return answer(j, now, JobView.JOB_VIEW_PRIVATE);
    }

    /**
     * As {@link #answer(JobRecord, Instant)}, with what {@code view} carries: SUMMARY only {@link #summary squeue's
     * fields}; FULL (and UNSPECIFIED) everything but the spec's script and environment; PRIVATE everything.
     */
    public static Job.Builder answer(JobRecord j, Instant now, JobView view) {
        Job.Builder b = view == JobView.JOB_VIEW_SUMMARY ? summary(j) : builder(j, view == JobView.JOB_VIEW_PRIVATE);
        return b.setTimeUsedSeconds(j.runSeconds(now));
    }

    /**
     * squeue's fields (JOB_VIEW_SUMMARY), those its format letters, sort keys, filters and array folding read: a
     * queue of 100,000 jobs is read in well under a second only if each costs little to build, send and parse, so
     * the repeated and nested fields no squeue report shows (node names one by one, the allocation, GRES, most
     * timestamps, the spec but for user, uid, gid, working directory and partitions) are left out.
     */
    private static Job.Builder summary(JobRecord j) {
        JobControls c = j.controls();
        Job.Builder b = shared(j).setSpec(JobRequests.summary(j.request()))
                .setAccount(c.account()).setQos(c.qos()).setNice(c.nice()).setDependency(c.dependency())
                .setArrayJobId(c.arrayJobId()).setArrayTaskSpec(c.arraySpec()).setArrayMaxRunning(c.arrayMaxRunning())
                .setSuspendSeconds(j.suspendedSeconds());
        if (c.arrayTaskId() >= 0) {
            b.setArrayTaskId(c.arrayTaskId());
        }
        times(b, j, false);
        return b;
    }

    /** What every view carries of a job's own fields. */
    private static Job.Builder shared(JobRecord j) {
        Job.Builder b = Job.newBuilder()
                .setJobId(j.id())
                .setName(j.name())
                .setState(state(j.state()))
                .setPhase(phase(j))
                .setCompleting(j.completing())
                .setReason(j.reason())
                .setPartition(j.partition())
                .setNodeList(Hostlist.compress(j.nodeNames()))
                .setNumNodes(numNodes(j))
                .setNumCpus(j.allocation().isEmpty() ? j.ask().totalCpus()
                        : j.allocation().stream().mapToInt(NodeShare::cpus).sum())
                .setMemPerNodeMb(j.ask().memPerNodeMb())
                .setTimeLimitSeconds(j.timeLimitSeconds())
                .setSubmitTime(ts(j.submitTime()))
                .setPriority(j.priority());
        if (j.batchHost() != null) {
            b.setBatchHost(j.batchHost());
        }
        return b;
    }

    /**
     * Start and end: while pending, backfill's estimate (StartTime, and EndTime = StartTime + the time limit: Slurm sets
     * both) and where (the node names one by one only with {@code schedNodeNames}); once started, the real start and
     * the real or expected end.
     */
    private static void times(Job.Builder b, JobRecord j, boolean schedNodeNames) {
        if (j.state() == JobState.PENDING && j.forecast() != null) {
            b.setStartTime(ts(j.forecast().start())).setSchedNodeList(Hostlist.compress(j.forecast().nodes()));
            if (schedNodeNames) {
                b.addAllSchedNodes(j.forecast().nodes());
            }
            if (j.timeLimitSeconds() >= 0) {
                b.setEndTime(ts(j.forecast().start().plusSeconds(j.timeLimitSeconds())));
            }
        }
        if (j.startTime() != null) {
            b.setStartTime(ts(j.startTime()));
        }
        if (j.endTime() != null) {
            b.setEndTime(ts(j.endTime()));
        } else if (j.startTime() != null && j.timeLimitSeconds() >= 0) {
            b.setEndTime(ts(j.startTime().plusSeconds(j.timeLimitSeconds() + j.suspendedSeconds())));
        }
    }

    private static Job.Builder builder(JobRecord j) {
        return builder(j, true);
    }

    private static Job.Builder builder(JobRecord j, boolean withPrivateParts) {
        Job.Builder b = shared(j)
                .setSpec(JobRequests.toProto(j.request(), withPrivateParts))
                .setMinNodes(j.ask().minNodes())
                .addAllPartitions(j.partitions())
                .addAllNodes(j.nodeNames())
                .setNumTasks(j.ask().numTasks())
                .setCpusPerTask(j.ask().cpusPerTask())
                .setMaxNodes(j.ask().maxNodes())
                .setEligibleTime(ts(eligibleTime(j)))
                .setExitCode(j.exitCode())
                .setExitSignal(j.exitSignal())
                .setNtasksPerNode(j.ask().ntasksPerNode())
                .setMemPerCpuMb(j.ask().memPerCpuMb())
                .setExclusive(j.ask().selection().exclusive())
                .setContiguous(j.ask().selection().contiguous())
                .setOversubscribe(j.ask().selection().oversubscribe())
                .setConstraint(j.ask().selection().constraint())
                .addAllReqNodes(j.ask().selection().requiredNodes())
                .addAllExcNodes(j.ask().selection().excludedNodes());
        j.ask().selection().gres().forEach(g -> b.addGres(gres(g)));
        controls(b, j.controls());
        b.setSuspendSeconds(j.suspendedSeconds()).setAdminSuspended(j.adminSuspended())
                .setBackfillPreemptable(j.backfillPreemptable()).setSchedByBackfill(j.startedByBackfill());
        if (j.preemptTime() != null) {
            b.setPreemptTime(ts(j.preemptTime()));
        }
        if (j.startTime() != null) {
            Instant until = j.endTime() != null ? j.endTime() : j.lastStateChange();
            if (until != null) {
                b.setRunSeconds(Math.max(0, until.getEpochSecond() - j.startTime().getEpochSecond() - j.suspendedSeconds()));
            }
        }
        times(b, j, true);
        for (NodeShare s : j.allocation()) {
            b.addAllocation(allocation(s));
        }
        if (j.lastStateChange() != null) {
            b.setLastStateChange(ts(j.lastStateChange()));
        }
        return b;
    }

    /** The job's phase: its state, and for one that ended whether anything of it is still being cleaned up. */
    public static JobPhase phase(JobRecord j) {
        return switch (j.state()) {
            case PENDING -> JobPhase.JOB_PHASE_PENDING;
            case RUNNING -> JobPhase.JOB_PHASE_RUNNING;
            case SUSPENDED -> JobPhase.JOB_PHASE_SUSPENDED;
            default -> j.completing() ? JobPhase.JOB_PHASE_COMPLETING : JobPhase.JOB_PHASE_FINISHED;
        };
    }

    public static JobRecord fromProto(Job p) {
        var spec = p.getSpec();
        List<NodeShare> alloc = p.getAllocationList().stream().map(JobProtos::share).toList();
        NodeSelection selection = new NodeSelection(p.getGresList().stream().map(JobProtos::gres).toList(),
                p.getExclusive(), p.getConstraint(), p.getReqNodesList(), p.getExcNodesList(), p.getContiguous(),
                p.getOversubscribe());
        JobState state = state(p.getState());
        // A running job's end_time in the API is its expected end; only a finished job has a real one.
        Instant end = state.isFinished() && p.hasEndTime() ? instant(p.getEndTime()) : null;
        // A pending job's start_time is backfill's forecast, not a start
        boolean pending = state == JobState.PENDING;
        Instant started = p.hasStartTime() && !pending ? instant(p.getStartTime()) : null;
        Forecast forecast = p.hasStartTime() && pending
                ? new Forecast(instant(p.getStartTime()), p.getSchedNodesList(), false) : null;
        return new JobRecord(p.getJobId(), JobRequests.fromProto(spec).shared(), p.getName(), spec.getUser(), spec.getUid(), spec.getGid(),
                p.getPartitionsList(),
                new ResourceAsk(p.getMinNodes(), p.getMaxNodes(), p.getNumTasks(), p.getCpusPerTask(), p.getMemPerNodeMb(),
                        p.getNtasksPerNode(), p.getMemPerCpuMb(), selection),
                p.getTimeLimitSeconds(), state, p.getCompleting(), reason(state, p.getReason()),
                state == JobState.PENDING ? "" : endNote(p.getReason()), p.getPartition(), alloc,
                instant(p.getSubmitTime()), started, end,
                p.hasLastStateChange() ? instant(p.getLastStateChange()) : null, p.getExitCode(), p.getExitSignal(),
                p.getPriority(), controls(p), forecast, p.getSuspendSeconds(), p.getAdminSuspended(),
                p.hasPreemptTime() ? instant(p.getPreemptTime()) : null, p.getBackfillPreemptable(),
                p.getSchedByBackfill());
    }

    /**
     * A stored or sent Reason= of a job in {@code state}, as its pending reason: the reason of that name while pending,
     * None otherwise. A pending job's name that no reason has (written by another version, or text from before reasons
     * were typed) reads as None, which the next main pass replaces, as it does every pending job's reason.
     */
    public static PendingReason reason(JobState state, String text) {
        return state == JobState.PENDING ? PendingReason.ofSlurmName(text).orElse(PendingReason.NONE)
                : PendingReason.NONE;
    }

    /** A stored or sent Reason= of a job that is not pending, as its end note: the text, empty for "None" or none. */
    private static String endNote(String text) {
        return text.equals(PendingReason.NONE.slurmName()) ? "" : text;
    }

    /**
     * Nodes it holds once started; while pending, the nodes backfill expects it to use, else its minimum (Slurm's
     * node_cnt_wag: squeue NODES, scontrol NumNodes).
     */
    private static int numNodes(JobRecord j) {
        if (!j.allocation().isEmpty()) {
            return j.allocation().size();
        }
        if (j.state() == JobState.PENDING && j.forecast() != null && !j.forecast().nodes().isEmpty()) {
            return j.forecast().nodes().size();
        }
        return j.ask().minNodes();
    }

    /** Not eligible before its begin time (Slurm's EligibleTime); submit time otherwise. */
    public static Instant eligibleTime(JobRecord j) {
        Instant begin = j.controls().beginTime();
        return begin != null && begin.isAfter(j.submitTime()) ? begin : j.submitTime();
    }

    private static void controls(Job.Builder b, JobControls c) {
        b.setAccount(c.account()).setQos(c.qos()).setNice(c.nice()).setDependency(c.dependency())
                .setRequeue(c.requeue()).setRestartCount(c.restartCount()).setHold(hold(c.hold()))
                .setArrayJobId(c.arrayJobId()).setArrayTaskSpec(c.arraySpec()).setArrayMaxRunning(c.arrayMaxRunning())
                .setAdminPriority(c.adminPriority());
        if (c.arrayTaskId() >= 0) {
            b.setArrayTaskId(c.arrayTaskId());
        }
        if (c.beginTime() != null) {
            b.setBeginTime(ts(c.beginTime()));
        }
    }

    private static JobControls controls(Job p) {
        return new JobControls(p.getAccount(), p.getQos(), p.getNice(), p.getRequeue(), p.getRestartCount(),
                hold(p.getHold()), p.hasBeginTime() ? instant(p.getBeginTime()) : null, p.getDependency(),
                p.getArrayJobId(), p.hasArrayTaskId() ? p.getArrayTaskId() : -1, p.getArrayTaskSpec(),
                p.getArrayMaxRunning(), p.getAdminPriority());
    }

    public static JobHold hold(JobControls.Hold h) {
        return switch (h) {
            case NONE -> JobHold.JOB_HOLD_UNSPECIFIED;
            case USER -> JobHold.JOB_HOLD_USER;
            case ADMIN -> JobHold.JOB_HOLD_ADMIN;
        };
    }

    public static JobControls.Hold hold(JobHold h) {
        return switch (h) {
            case JOB_HOLD_USER -> JobControls.Hold.USER;
            case JOB_HOLD_ADMIN -> JobControls.Hold.ADMIN;
            default -> JobControls.Hold.NONE;
        };
    }

    /** A node's share of a job as the API's NodeAllocation (core ids and GRES included). */
    public static NodeAllocation allocation(NodeShare s) {
        NodeAllocation.Builder b = NodeAllocation.newBuilder().setNode(s.node()).setCpus(s.cpus()).setMemoryMb(s.memoryMb())
                .addAllCoreIds(s.coreIds());
        for (GresGrant g : s.gres()) {
            b.addGres(Gres.newBuilder().setName(g.name()).setType(g.type()).setCount(g.count()).addAllIndices(g.indices()));
        }
        return b.build();
    }

    public static NodeShare share(NodeAllocation a) {
        return new NodeShare(a.getNode(), a.getCpus(), a.getMemoryMb(), a.getCoreIdsList(), a.getGresList().stream()
                .map(g -> new GresGrant(g.getName(), g.getType(), g.getCount(), g.getIndicesList())).toList());
    }

    public static Gres gres(GresSpec g) {
        return Gres.newBuilder().setName(g.name()).setType(g.type()).setCount(g.count()).build();
    }

    public static GresSpec gres(Gres g) {
        return new GresSpec(g.getName(), g.getType(), g.getCount());
    }

    public static dev.gantry.api.v1.JobState state(JobState s) {
        return dev.gantry.api.v1.JobState.valueOf("JOB_STATE_" + s.name());
    }

    public static JobState state(dev.gantry.api.v1.JobState s) {
        return JobState.valueOf(s.name().substring("JOB_STATE_".length()));
    }

    public static Timestamp ts(Instant t) {
        return Timestamp.newBuilder().setSeconds(t.getEpochSecond()).setNanos(t.getNano()).build();
    }

    public static Instant instant(Timestamp t) {
        return Instant.ofEpochSecond(t.getSeconds(), t.getNanos());
    }
}
