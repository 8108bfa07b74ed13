package dev.gantry.scheduler.preempt;

import dev.gantry.scheduler.model.JobRecord;
import dev.gantry.scheduler.model.JobState;
import java.time.Instant;

/**
 * How a CANCEL or REQUEUE victim with a GraceTime ended (https://slurm.schedmd.com/preempt.html, GraceTime): at
 * selection it got SIGCONT and SIGTERM and until now + GraceTime to exit; a job whose processes were still there at
 * that deadline was ended by the kill sequence (a grace-time kill), one that was gone before it exited within its grace
 * time. Pure.
 */
public final class GraceEnd {
    private GraceEnd() {}

    /** What became of a victim's grace time. */
    public enum Outcome {
        /** Not a victim ending now, or its GraceTime was 0. */
        NONE,
        /** Its processes ended before the deadline. */
        EXITED,
        /** Its processes outlived the deadline: killed when the grace time ran out. */
        KILLED
    }

    /**
     * @param j the job whose processes are all gone, as it was before that (completing)
     * @param graceSeconds its GraceTime when it was preempted
     * @param ended when its last process ended
     */
    public static Outcome of(JobRecord j, long graceSeconds, Instant ended) {
        boolean victim = j.completing() && j.preemptTime() != null
                && (j.state() == JobState.PREEMPTED || j.state() == JobState.PENDING)
                && j.preemptTime().equals(j.lastStateChange()); // this preemption, not an older one
        if (!victim || graceSeconds <= 0) {
            return Outcome.NONE;
        }
        return ended.isBefore(j.preemptTime().plusSeconds(graceSeconds)) ? Outcome.EXITED : Outcome.KILLED;
    }
}
