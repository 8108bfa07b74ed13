package dev.gantry.agent.process;

import dev.gantry.agent.job.ExitReport;

/** Receives each job's exit exactly once, in the order jobs end. Must not block: it queues for delivery. */
public interface ExitSink {
    void jobEnded(ExitReport exit);
}
