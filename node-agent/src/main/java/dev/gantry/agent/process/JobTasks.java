package dev.gantry.agent.process;

import java.time.Duration;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The supervisor's background work on the job scheduler; tasks submitted while the agent stops are dropped. */
final class JobTasks {

    private static final Logger LOG = LoggerFactory.getLogger(JobTasks.class);

    private final ScheduledExecutorService scheduler;

    JobTasks(ScheduledExecutorService scheduler) {
        this.scheduler = scheduler;
    }

    void now(Runnable task) {
        try {
            scheduler.execute(task);
        } catch (RejectedExecutionException e) {
            LOG.debug("agent stopping; dropped a job task");
        }
    }

    /** @return the scheduled task, or null when the agent is stopping */
    ScheduledFuture<?> after(Runnable task, Duration delay) {
        try {
            return scheduler.schedule(task, delay.toMillis(), TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException e) {
            LOG.debug("agent stopping; dropped a job task");
            return null;
        }
    }
}
