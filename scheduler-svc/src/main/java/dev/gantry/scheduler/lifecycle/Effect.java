package dev.gantry.scheduler.lifecycle;

import dev.gantry.common.config.PreemptAction;
import dev.gantry.scheduler.access.Requester;
import dev.gantry.scheduler.model.JobRecord;
import dev.gantry.scheduler.preempt.Escalation;
import java.time.Instant;
import java.util.List;

/**
 * What a transition asks the runtime to do once its new records are in the controller's state. Values only: a
 * transition returns them and touches nothing; the runtime's applier carries them out, grouped in one fixed order (see
 * {@code dev.gantry.scheduler.runtime.LifecycleApplier}), whatever order a transition lists them in.
 */
public sealed interface Effect {

    /** Write this version of the job durably (group commit). */
    record Persist(JobRecord job) implements Effect {}

    /** The job was placed on its nodes: a part of it may now be on each (tracked until each shows it gone). */
    record TrackParts(JobRecord job) implements Effect {}

    /**
     * Launch the job's run on its batch host. The applier signs and builds every launch of a decision before it sends
     * any agent call, then sends them in the order listed with the other agent calls (a victim's freeze listed before
     * its preemptor's launch reaches the agent first).
     */
    record Launch(JobRecord job) implements Effect {}

    /** Count a submission (by partition). */
    record CountSubmit(JobRecord job) implements Effect {}

    /** Forget a finished job (it stays in the database); carried out with the records, before anything else. */
    record Forget(long jobId) implements Effect {}

    /** Count a start (by partition, with its wait since submission). */
    record CountStart(JobRecord job) implements Effect {}

    /** The job's run took its resources: publish the allocation and the nodes it holds. */
    record PublishAllocation(JobRecord job) implements Effect {}

    /** The job gave its resources back: publish the allocation's release and the nodes it held. */
    record PublishRelease(JobRecord job) implements Effect {}

    /**
     * The job's allocation changed in place (suspended or resumed): publish it, and when {@code nodes} the nodes it is
     * on (an operator's suspension gives their CPUs back).
     */
    record PublishChange(JobRecord job, boolean nodes) implements Effect {}

    /** Stop the job's processes in place on each of its nodes (SIGSTOP / cgroup freeze), naming its run. */
    record Freeze(JobRecord job) implements Effect {}

    /** Continue the job's stopped processes on each of its nodes, naming its run. */
    record Thaw(JobRecord job) implements Effect {}

    /** Count an operator's scontrol suspend or resume. */
    record CountManualSuspension(boolean suspend) implements Effect {}

    /** Publish the node's current record (its state or allocation changed). */
    record PublishNode(String node) implements Effect {}

    /** Charge the job's usage to its association from {@code from} on (fair share). */
    record StartCharging(JobRecord job, Instant from) implements Effect {}

    /** Stop charging the job's usage at {@code at}. */
    record StopCharging(JobRecord job, Instant at) implements Effect {}

    /**
     * The job's resources go back whatever of it is left: stop tracking its parts and end those still on nodes other
     * than the batch host.
     */
    record ReleaseParts(JobRecord job, String why) implements Effect {}

    /**
     * Start the kill sequence on every node of the job: SIGTERM, then SIGKILL after {@code graceSeconds} + KillWait
     * (a preemption victim's GraceTime; 0 otherwise).
     */
    record Terminate(JobRecord job, String why, long graceSeconds) implements Effect {
        /** The kill sequence with KillWait alone. */
        public Terminate(JobRecord job, String why) {
            this(job, why, 0);
        }
    }

    /** End the job's parts on these nodes with the kill sequence (the batch host's part is already gone). */
    record EndParts(JobRecord job, List<String> nodes, String why) implements Effect {}

    /** Count the job's end in the metrics (by final state and partition). */
    record CountEnd(JobRecord job) implements Effect {}

    /** Count a job preempted in {@code mode} (cancel, requeue, suspend), and its mode's escalation if any. */
    record CountPreempted(JobRecord victim, PreemptAction mode, Escalation escalation) implements Effect {}

    /** Count a preemption victim killed because its GraceTime ran out. */
    record CountGraceKill(String partition) implements Effect {}

    /** Count a report (exit or usage) about another run of a job than its current one, which changed nothing. */
    record CountStaleRun(JobExit.ReportKind kind) implements Effect {}

    /** Audit {@code verb} on the job, done at {@code at}, when {@code who} is not its owner. */
    record AuditOnJob(Requester who, String verb, JobRecord job, Instant at) implements Effect {}

    /** Log a line about a job (INFO, or WARN when {@code warn}). */
    record Note(boolean warn, String text) implements Effect {}

    /** Something may let a pending job start: ask for a scheduling pass (coalesced: at most once per decision). */
    record TriggerPass() implements Effect {}

    TriggerPass TRIGGER_PASS = new TriggerPass();
}
