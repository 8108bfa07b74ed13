package dev.gantry.agent.process;

import dev.gantry.agent.job.LaunchOutcome;
import java.time.Duration;

/** What the supervisor tells the metrics layer. Implementations are thread-safe and do not block. */
public interface JobTelemetry {

    /** One LaunchJob call ended; {@code startLatency} (credential check to process started) only when it started. */
    void launched(LaunchOutcome outcome, Duration startLatency);

    /** A signal was delivered to a job's processes (SignalJob, the kill sequence, leftovers after the script). */
    void signalled(int signal);

    /** A job ended after the kernel killed a process of it for exceeding its memory limit. */
    default void outOfMemory() {}

    /** The periodic usage sample of every running job (possibly none), after it was taken. */
    default void sampled(java.util.List<UsageSample> running) {}

    JobTelemetry NONE = new JobTelemetry() {
        @Override
        public void launched(LaunchOutcome outcome, Duration startLatency) {}

        @Override
        public void signalled(int signal) {}
    };
}
