package dev.gantry.agent.grpc;

import com.google.common.util.concurrent.ListenableFuture;
import com.google.protobuf.Timestamp;
import dev.gantry.agent.job.ExitReport;
import dev.gantry.agent.job.JobRun;
import dev.gantry.agent.node.Backoff;
import dev.gantry.agent.process.ExitJournal;
import dev.gantry.agent.process.ExitSink;
import dev.gantry.api.v1.AgentHubGrpc;
import dev.gantry.api.v1.ReportJobExitRequest;
import dev.gantry.api.v1.ReportJobExitResponse;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Delivers job exits to AgentHub.ReportJobExit, sent in the order jobs ended, each re-sent (capped backoff) until the
 * controller acknowledges it, which it does once the result is durable; it may restart in between. Up to
 * {@link #WINDOW} reports are in flight at once (the controller commits concurrent ones in one transaction, so a
 * node whose jobs end quickly is not held to one exit per commit); after a failure only the oldest is sent, alone,
 * until it is acknowledged, so an unreachable controller gets one call per backoff step. A report
 * the controller rejects as INVALID_ARGUMENT or NOT_FOUND (it does not know the job) is dropped with a warning,
 * so that it cannot hold back every later one. Each exit is recorded in the {@link ExitJournal} before it is
 * queued and removed once acknowledged; a restarted agent re-sends the ones its predecessor had not delivered.
 * Thread-safe; sends run on the scheduler, one window at a time.
 */
public final class ExitReportSender implements ExitSink, AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ExitReportSender.class);

    /** How many reports may be in flight at once. */
    static final int WINDOW = 64;

    private final AgentHubGrpc.AgentHubFutureStub hub;
    private final String nodeName;
    private final ScheduledExecutorService scheduler;
    private final Backoff backoff;
    private final Duration callDeadline;
    private final ExitJournal journal;
    private final Deque<ExitReport> queue = new ArrayDeque<>();
    private boolean draining;
    /** Which scheduled drain is the current one: a nudge ({@link #controllerReachable}) supersedes a waiting retry. */
    private long wave;
    private boolean closed;
    private int failures;

    public ExitReportSender(AgentHubGrpc.AgentHubBlockingStub hub, String nodeName, ScheduledExecutorService scheduler,
            Backoff backoff, Duration callDeadline) {
        this(hub, nodeName, scheduler, backoff, callDeadline, ExitJournal.NONE);
    }

    /** Starts by re-sending the exits {@code journal} holds from an earlier run, oldest first. */
    public ExitReportSender(AgentHubGrpc.AgentHubBlockingStub hub, String nodeName, ScheduledExecutorService scheduler,
            Backoff backoff, Duration callDeadline, ExitJournal journal) {
        this.hub = AgentHubGrpc.newFutureStub(hub.getChannel()); // calls go out on the blocking stub's channel
        this.nodeName = nodeName;
        this.scheduler = scheduler;
        this.backoff = backoff;
        this.callDeadline = callDeadline;
        this.journal = journal;
        List<ExitReport> earlier = journal.unacknowledged();
        if (!earlier.isEmpty()) {
            LOG.info("{}: re-sending {} job exit report(s) not acknowledged before the agent restarted", nodeName, earlier.size());
            synchronized (this) {
                queue.addAll(earlier);
                draining = true;
                schedule(Duration.ZERO);
            }
        }
    }

    @Override
    public void jobEnded(ExitReport exit) {
        journal.recorded(exit);
        enqueue(exit);
    }

    private synchronized void enqueue(ExitReport exit) {
        queue.addLast(exit);
        if (!draining && !closed) {
            draining = true;
            schedule(Duration.ZERO);
        }
    }

    /**
     * The controller answered again (this agent registered with it): exits that wait for a retry go now instead of at
     * the backoff's next step, which may be half a minute away after a long outage (the controller would meanwhile
     * show those jobs RUNNING with nothing left of them).
     */
    public synchronized void controllerReachable() {
        if (failures > 0 && !queue.isEmpty() && !closed) {
            draining = true;
            schedule(Duration.ZERO);
        }
    }

    /** Ids of the exits not yet acknowledged, oldest first. */
    public synchronized List<Long> pending() {
        return queue.stream().map(ExitReport::jobId).toList();
    }

    @Override
    public synchronized void close() {
        closed = true;
        if (!queue.isEmpty()) {
            LOG.warn("{}: stopping with {} undelivered job exit(s): {}", nodeName, queue.size(), pending());
        }
    }

    private void drain(long mine) {
        while (true) {
            List<ExitReport> window;
            synchronized (this) {
                if (mine != wave) {
                    return; // superseded by a later drain, which carries on
                }
                if (queue.isEmpty() || closed) {
                    draining = false;
                    return;
                }
                window = queue.stream().limit(failures > 0 ? 1 : WINDOW).toList();
            }
            List<ListenableFuture<ReportJobExitResponse>> calls = new ArrayList<>(window.size());
            for (ExitReport exit : window) {
                calls.add(hub.withDeadlineAfter(callDeadline.toMillis(), TimeUnit.MILLISECONDS).reportJobExit(toRequest(exit)));
            }
            StatusRuntimeException failed = null;
            ExitReport failedExit = null;
            for (int i = 0; i < window.size(); i++) {
                ExitReport exit = window.get(i);
                try {
                    calls.get(i).get();
                    delivered(exit);
                } catch (ExecutionException | InterruptedException e) {
                    if (e instanceof InterruptedException) {
                        Thread.currentThread().interrupt();
                    }
                    StatusRuntimeException sre = Status.fromThrowable(e).asRuntimeException();
                    Status.Code code = sre.getStatus().getCode();
                    if (code == Status.Code.INVALID_ARGUMENT || code == Status.Code.NOT_FOUND) {
                        LOG.warn("{}: controller rejected the exit report of job {} ({}); dropped", nodeName, exit.jobId(), HubSession.describe(sre));
                        delivered(exit);
                    } else if (failed == null) {
                        failed = sre;
                        failedExit = exit;
                    }
                }
            }
            if (failed != null) {
                synchronized (this) {
                    if (mine != wave) {
                        return; // a nudge came meanwhile: its drain sends again
                    }
                    failures++;
                    if (failures == 1) {
                        LOG.warn("{}: cannot report the exit of job {} ({}); retrying until acknowledged", nodeName, failedExit.jobId(), HubSession.describe(failed));
                    }
                    schedule(backoff.delay(failures));
                }
                return;
            }
        }
    }

    private void delivered(ExitReport exit) {
        journal.acknowledged(exit);
        dequeue(exit);
    }

    private synchronized void dequeue(ExitReport exit) {
        queue.remove(exit);
        if (failures > 0) {
            LOG.info("{}: job exit reports delivered again after {} failed attempt(s)", nodeName, failures);
        }
        failures = 0;
    }

    private synchronized void schedule(Duration delay) {
        long mine = ++wave;
        try {
            scheduler.schedule(() -> drain(mine), delay.toMillis(), TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException e) {
            draining = false;
        }
    }

    ReportJobExitRequest toRequest(ExitReport exit) {
        ReportJobExitRequest.Builder b = ReportJobExitRequest.newBuilder()
                .setJobId(exit.jobId())
                .setNode(nodeName)
                .setExitCode(exit.status().code())
                .setExitSignal(exit.status().signal())
                .setReason(exit.reason())
                .setCpuSeconds(exit.cpuSeconds())
                .setMaxRssKb(exit.maxRssKb())
                .setOutOfMemory(exit.outOfMemory());
        if (exit.run() != JobRun.UNKNOWN) {
            b.setRestartCount(exit.run()); // the controller ignores a report of another run than the job's current one
        }
        if (exit.startedAt() != null) {
            b.setStartedAt(timestamp(exit.startedAt()));
        }
        if (exit.endedAt() != null) {
            b.setEndedAt(timestamp(exit.endedAt()));
        }
        return b.build();
    }

    private static Timestamp timestamp(Instant t) {
        return Timestamp.newBuilder().setSeconds(t.getEpochSecond()).setNanos(t.getNano()).build();
    }
}
