package dev.gantry.scheduler.runtime;

import dev.gantry.api.v1.Job;
import dev.gantry.scheduler.api.JobProtos;
import dev.gantry.scheduler.model.JobRecord;
import dev.gantry.scheduler.preempt.PreemptSettings;
import dev.gantry.scheduler.preempt.VictimRules;
import java.time.Instant;

/**
 * A job as the API shows it, with scontrol's PreemptEligibleTime for a job that holds resources: when the time
 * exemptions (PreemptExemptTime from its start, PreemptMinActiveTime from its start or last resume) stop protecting it
 * under the settings in force; its start time when none applies (as Slurm, which sets it for every started job).
 * PreemptTime comes with the record itself.
 */
final class PreemptionView {

    private final VictimRules rules;

    PreemptionView(PreemptSettings settings) {
        this.rules = new VictimRules(settings);
    }

    /** Adds PreemptEligibleTime to a job's answer when it holds resources and a time applies. */
    void addTo(Job.Builder answer, JobRecord j) {
        if (!j.state().holdsResources()) {
            return;
        }
        Instant eligible = rules.eligibleTime(j);
        if (eligible != null) {
            answer.setPreemptEligibleTime(JobProtos.ts(eligible));
        }
    }
}
