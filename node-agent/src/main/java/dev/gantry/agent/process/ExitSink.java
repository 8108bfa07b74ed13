package dev.gantry.agent.process;

import dev.gantry.agent.job.JobExit;

/** Receives each job's exit exactly once, in the order jobs end. Must not block: it queues for delivery. */
public interface ExitSink {
    void jobEnded(JobExit exit);
}
