package dev.gantry.agent.process;

import dev.gantry.agent.job.LaunchOutcome;

/**
 * A launch that passed its checks and whose process waits, contained, for {@link #go} ({@link JobSupervisor#prepare});
 * or one already settled (refused, invalid, failed), whose {@code go} returns why.
 */
public sealed interface LaunchPreparation permits LaunchPreparation.Settled, PreparedLaunch {

    /** Runs the job's script (once); the launch's outcome. */
    LaunchOutcome go();

    /** Gives the launch up before anything of the job ran: its process is killed and the job leaves the table. */
    void abandon();

    /** A launch that ended at its checks or its preparation. */
    record Settled(LaunchOutcome outcome) implements LaunchPreparation {
        @Override
        public LaunchOutcome go() {
            return outcome;
        }

        @Override
        public void abandon() {}
    }
}
