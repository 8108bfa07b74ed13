package dev.gantry.agent.process;

import dev.gantry.agent.job.JobUser;
import dev.gantry.agent.job.LaunchCommand;
import dev.gantry.agent.job.StepCommand;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs this node's tasks of a job step (slurmstepd's part of srun): each task a real process started through
 * {@link StepCommand}'s chain inside the job's container, its stdout and stderr read by two virtual threads and
 * handed to the {@link Sink} as they come, its exit code after both streams ended. Once every task has exited
 * the sink's {@code done} is called, once. Each task leads a session of its own, so the job is told of it
 * ({@link Membership}) from the moment it leads its group until it was reaped: the job's signals then reach it
 * also where its container is a process group.
 *
 * <p>Thread-safe; the sink's calls are serialized by this runner.
 */
public final class StepRunner {

    private static final Logger LOG = LoggerFactory.getLogger(StepRunner.class);

    /** Where a step's output and exits go. */
    public interface Sink {
        void output(int taskId, boolean stderr, byte[] data);

        void exit(int taskId, int exitCode);

        void done();
    }

    /** How a step's tasks become processes of their job, and stop being ones (see JobSupervisor.StepHost). */
    public interface Membership {

        /**
         * The tasks {@code pids}, each leading its own process group, are processes of the job from now on; false
         * (nothing entered) when the job no longer takes tasks here (then they are killed).
         */
        boolean started(List<Long> pids);

        /** The task {@code pid} has exited and was reaped; its group id is no longer the job's. */
        void exited(long pid);
    }

    /** The running tasks of one step on this node. */
    public static final class Tasks {
        private final List<Process> processes = new ArrayList<>();

        /** Kills every task (and, through its session, what it started); idempotent. */
        public void kill() {
            for (Process p : processes) {
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly();
            }
        }
    }

    /** One task to start: its global id (SLURM_PROCID) and environment. */
    public record Task(int taskId, Map<String, String> environment) {}

    private final LaunchCommand.Tools tools;
    private final UnixAccounts accounts;

    public StepRunner(LaunchCommand.Tools tools) {
        this.tools = tools;
        this.accounts = new UnixAccounts(tools.sh(), tools.setpriv());
    }

    /**
     * Starts {@code tasks} running {@code command} in {@code workDir}, inside the job's cgroups ({@code joinFiles}),
     * as {@code user}, and enters them into the job ({@code membership}) once each leads its own group. Returns the
     * running tasks, or why none started (then nothing runs and the sink is not called).
     */
    public StartResult start(List<String> command, Path workDir, JobUser user, List<Path> joinFiles, Membership membership,
            List<Task> tasks, Sink sink) {
        if (!Files.isDirectory(workDir)) {
            return new StartResult(Optional.empty(), Optional.of("work_dir " + workDir + ": No such file or directory"));
        }
        Optional<JobUser> runAs = accounts.runAs(user);
        List<String> argv = StepCommand.argv(tools, joinFiles.stream().map(Path::toString).toList(), runAs, command);
        Tasks running = new Tasks();
        Object lock = new Object();
        AtomicInteger left = new AtomicInteger(tasks.size());
        List<Process> started = new ArrayList<>();
        for (Task task : tasks) {
            ProcessBuilder builder = new ProcessBuilder(argv).directory(workDir.toFile())
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
            builder.environment().clear();
            builder.environment().putAll(task.environment());
            try {
                started.add(Spawns.start(builder));
            } catch (IOException e) {
                started.forEach(Process::destroyForcibly);
                return new StartResult(Optional.empty(), Optional.of("cannot start " + command.get(0) + ": " + e.getMessage()));
            }
        }
        running.processes.addAll(started);
        started.forEach(StepRunner::awaitOwnGroup);
        if (!membership.started(started.stream().filter(Process::isAlive).map(Process::pid).toList())) { // a reaped pid names nothing
            running.kill();
            return new StartResult(Optional.empty(), Optional.of("the job no longer runs here"));
        }
        for (int i = 0; i < tasks.size(); i++) {
            Process p = started.get(i);
            int taskId = tasks.get(i).taskId();
            Thread out = Thread.ofVirtual().start(() -> pump(p.getInputStream(), taskId, false, sink, lock));
            Thread err = Thread.ofVirtual().start(() -> pump(p.getErrorStream(), taskId, true, sink, lock));
            Thread.ofVirtual().start(() -> {
                int code = exitCode(p);
                membership.exited(p.pid());
                join(out);
                join(err); // its output read to the end: the exit follows the last of it
                synchronized (lock) {
                    sink.exit(taskId, code);
                    if (left.decrementAndGet() == 0) {
                        sink.done();
                    }
                }
            });
        }
        return new StartResult(Optional.of(running), Optional.empty());
    }

    /** @param problem why nothing started, when {@code tasks} is empty */
    public record StartResult(Optional<Tasks> tasks, Optional<String> problem) {}

    private static void pump(InputStream in, int taskId, boolean stderr, Sink sink, Object lock) {
        byte[] buf = new byte[8192];
        try (in) {
            int n;
            while ((n = in.read(buf)) > 0) {
                byte[] chunk = java.util.Arrays.copyOf(buf, n);
                synchronized (lock) {
                    sink.output(taskId, stderr, chunk);
                }
            }
        } catch (IOException e) {
            LOG.debug("task {}: {} closed: {}", taskId, stderr ? "stderr" : "stdout", e.getMessage());
        }
    }

    /**
     * Waits (briefly: it is past setsid within microseconds to a few milliseconds) until the task leads its own
     * process group, so that no signal to that group misses it; gives up when it ended, or after
     * {@link BatchLauncher#IN_PLACE_LIMIT} (it then runs contained as far as it got).
     */
    private static void awaitOwnGroup(Process p) {
        long deadline = System.nanoTime() + BatchLauncher.IN_PLACE_LIMIT.toNanos();
        while (!BatchLauncher.leadsOwnGroup(p.pid()) && p.isAlive() && System.nanoTime() < deadline) {
            java.util.concurrent.locks.LockSupport.parkNanos(100_000);
        }
    }

    /** The task's exit code as a shell reports it (128 + signal when killed), once it was reaped. */
    private static int exitCode(Process p) {
        while (true) {
            try {
                return p.waitFor();
            } catch (InterruptedException e) {
                // keep waiting: the exit still has to be reported
            }
        }
    }

    private static void join(Thread t) {
        while (true) {
            try {
                t.join();
                return;
            } catch (InterruptedException e) {
                // keep waiting, as above
            }
        }
    }
}
