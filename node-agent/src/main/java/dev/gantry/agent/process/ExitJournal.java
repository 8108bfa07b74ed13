package dev.gantry.agent.process;

import dev.gantry.agent.job.JobExit;
import java.util.List;

/**
 * Keeps job exits the controller has not acknowledged yet, so that an agent restart does not lose them.
 * Implementations are thread-safe; failures to persist are logged, not thrown (the report still goes out).
 */
public interface ExitJournal {

    /** Called before the exit is queued for sending. */
    void recorded(JobExit exit);

    /** The controller acknowledged (or rejected for good) the job's exit report. */
    void acknowledged(long jobId);

    /** The exits recorded and not acknowledged, in the order they were recorded. */
    List<JobExit> unacknowledged();

    ExitJournal NONE = new ExitJournal() {
        @Override
        public void recorded(JobExit exit) {}

        @Override
        public void acknowledged(long jobId) {}

        @Override
        public List<JobExit> unacknowledged() {
            return List.of();
        }
    };
}
