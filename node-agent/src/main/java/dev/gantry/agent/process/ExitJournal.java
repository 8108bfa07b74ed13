package dev.gantry.agent.process;

import dev.gantry.agent.job.ExitReport;
import java.util.List;

/**
 * Keeps job exits the controller has not acknowledged yet, so that an agent restart does not lose them.
 * Implementations are thread-safe; failures to persist are logged, not thrown (the report still goes out).
 */
public interface ExitJournal {

    /** Called before the exit is queued for sending. */
    void recorded(ExitReport exit);

    /** The controller acknowledged (or rejected for good) this exit report (of this run of the job). */
    void acknowledged(ExitReport exit);

    /** The exits recorded and not acknowledged, in the order they were recorded. */
    List<ExitReport> unacknowledged();

    ExitJournal NONE = new ExitJournal() {
        @Override
        public void recorded(ExitReport exit) {}

        @Override
        public void acknowledged(ExitReport exit) {}

        @Override
        public List<ExitReport> unacknowledged() {
            return List.of();
        }
    };
}
