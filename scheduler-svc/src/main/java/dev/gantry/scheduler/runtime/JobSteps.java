package dev.gantry.scheduler.runtime;

import com.google.protobuf.Timestamp;
import dev.gantry.api.v1.CreateStepRequest;
import dev.gantry.api.v1.CreateStepResponse;
import dev.gantry.api.v1.Step;
import dev.gantry.api.v1.StepTarget;
import dev.gantry.common.hostlist.Hostlist;
import dev.gantry.scheduler.control.StepChange;
import dev.gantry.scheduler.control.StepLayout;
import dev.gantry.scheduler.control.StepRegistry;
import dev.gantry.scheduler.model.ClusterState;
import dev.gantry.scheduler.model.JobRecord;
import dev.gantry.scheduler.model.JobState;
import dev.gantry.scheduler.model.NodeRecord;
import dev.gantry.scheduler.store.GroupCommitWriter;
import dev.gantry.scheduler.store.JobStore;
import io.grpc.Status;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Job steps on the controller thread (slurmctld's step records): srun creates a step of a running job it belongs
 * to, gets its layout, its nodes' agent addresses and a step credential, and reports its end; squeue -s and
 * scontrol show step list the steps of running jobs, each job's batch script as its step "batch". Steps of a job
 * that stopped running are forgotten (its processes, steps' included, were killed with it).
 *
 * <p>Steps are durable: every change goes to the database through the group commit (a new step is acknowledged to
 * srun only once committed, so its id is never given again, also after a crash), and a restarted controller takes
 * back the steps and step numbering of the jobs still running. A job's stored steps leave with it: at the latest
 * {@link #sweep} after it stops running.
 */
public final class JobSteps {

    private static final Logger LOG = LoggerFactory.getLogger(JobSteps.class);

    private final ClusterState state;
    private final JobLauncher launcher;
    private final GroupCommitWriter writer;
    private final SchedulerMetrics metrics;
    private final InstantSource clock;
    private final Executor onController;
    private final StepRegistry registry = new StepRegistry();

    /**
     * @param launcher signs the step credentials
     * @param writer where step changes are committed, with the job versions
     * @param onController the controller thread, where every step is created, listed and ended
     * @param stored the steps and numbering the store holds (read at start, before the controller serves): restored
     *     for the jobs still running, dropped (from memory and store) for the others
     */
    JobSteps(ClusterState state, JobLauncher launcher, GroupCommitWriter writer, SchedulerMetrics metrics,
            InstantSource clock, Executor onController, JobStore.StoredSteps stored) {
        this.state = state;
        this.launcher = launcher;
        this.writer = writer;
        this.metrics = metrics;
        this.clock = clock;
        this.onController = onController;
        call(() -> {
            registry.restore(stored.steps(), stored.nextStepIds());
            prune();
            return null;
        }).join();
        if (!stored.steps().isEmpty()) {
            LOG.info("restored {} step(s) of running jobs", stored.steps().size());
        }
    }

    /** CreateStep: fails with a gRPC status (NOT_FOUND, PERMISSION_DENIED, FAILED_PRECONDITION, INVALID_ARGUMENT). */
    public CompletableFuture<CreateStepResponse> create(CreateStepRequest r) {
        return call(() -> {
            prune();
            if (r.getArgvCount() == 0 || r.getArgv(0).isEmpty()) {
                throw Status.INVALID_ARGUMENT.withDescription("argv: a command is required").asRuntimeException();
            }
            JobRecord j = state.job(r.getJobId());
            if (j == null) {
                throw Status.NOT_FOUND.withDescription("Invalid job id specified").asRuntimeException();
            }
            if (!r.getUser().equals(j.user()) && !r.getUser().equals("root")) {
                throw Status.PERMISSION_DENIED.withDescription("Access/permission denied: job " + j.id() + " belongs to " + j.user()).asRuntimeException();
            }
            if (j.state() != JobState.RUNNING || j.completing()) {
                throw Status.FAILED_PRECONDITION.withDescription("Job " + j.id() + " is not running (" + j.state() + ")").asRuntimeException();
            }
            List<String> named = new ArrayList<>();
            for (String n : r.getNodeListList()) {
                try {
                    named.addAll(Hostlist.expand(n));
                } catch (IllegalArgumentException e) {
                    throw Status.INVALID_ARGUMENT.withDescription("node_list: " + e.getMessage()).asRuntimeException();
                }
            }
            StepLayout.Result layout = StepLayout.plan(j.nodeNames(), r.getNodes(), r.getNumTasks(), named);
            if (layout.refusal().isPresent()) {
                throw Status.FAILED_PRECONDITION.withDescription(layout.refusal().get()).asRuntimeException();
            }
            List<String> nodes = layout.placements().stream().map(StepLayout.Placement::node).toList();
            for (String node : nodes) {
                NodeRecord n = state.node(node);
                if (n == null || n.agentAddress().isEmpty()) { // e.g. just after a controller restart, until it registers again
                    throw Status.FAILED_PRECONDITION.withDescription("node " + node + " has not registered with the controller yet; "
                            + "try again shortly").asRuntimeException();
                }
            }
            String name = r.getName().isEmpty() ? r.getArgv(0).substring(r.getArgv(0).lastIndexOf('/') + 1) : r.getName();
            Instant now = clock.instant();
            StepRegistry.Step step = registry.add(j.id(), name, nodes, layout.numTasks(), r.getArgvList(), now,
                    j.runSeconds(now));
            CreateStepResponse.Builder out = CreateStepResponse.newBuilder().setStep(toProto(j, step, now))
                    .setCredential(launcher.stepCredential(j, Integer.toString(step.stepId()), nodes, r.getArgvList()));
            for (StepLayout.Placement p : layout.placements()) {
                NodeRecord n = state.node(p.node());
                out.addTargets(StepTarget.newBuilder().setNode(p.node()).setAddress(n.stepAddress())
                        .setNodeId(p.nodeId()).addAllTaskIds(p.taskIds()));
            }
            metrics.stepStarted(j.partition());
            LOG.info("step {} created: {} task(s) on {}", step.id(), step.numTasks(), nodes);
            return new Created(out.build(), writer.write(new StepChange.Created(step)));
        }).thenCompose(c -> c.committed.thenApply(v -> c.response));
    }

    private record Created(CreateStepResponse response, CompletableFuture<Void> committed) {}

    /**
     * CompleteStep: the step leaves the registry; the future completes once that is committed. Idempotent; an unknown
     * step is not an error.
     */
    public CompletableFuture<Boolean> complete(long jobId, String stepId, int exitCode, String caller) {
        return call(() -> {
            JobRecord j = state.job(jobId);
            if (j != null && !caller.equals(j.user()) && !caller.equals("root")) {
                throw Status.PERMISSION_DENIED.withDescription("Access/permission denied: job " + j.id() + " belongs to " + j.user()).asRuntimeException();
            }
            int id;
            try {
                id = Integer.parseInt(stepId);
            } catch (NumberFormatException e) {
                return CompletableFuture.completedFuture(false);
            }
            if (!registry.complete(jobId, id)) {
                return CompletableFuture.completedFuture(false);
            }
            LOG.info("step {}.{} ended (exit {})", jobId, stepId, exitCode);
            return writer.write(new StepChange.Ended(jobId, id)).thenApply(v -> true);
        }).thenCompose(f -> f);
    }

    /** Forgets, in memory and in the store, the steps of jobs that stopped running (controller thread; periodic). */
    void sweep() {
        prune();
    }

    /** ListSteps: the batch step and the steps of each running job of {@code jobIds} (all when empty), in job then step order. */
    public CompletableFuture<List<Step>> list(Collection<Long> jobIds) {
        return call(() -> {
            prune();
            List<Step> out = new ArrayList<>();
            Instant now = clock.instant();
            state.jobs().stream()
                    .filter(j -> running(j) && (jobIds.isEmpty() || jobIds.contains(j.id())))
                    .sorted(Comparator.comparingLong(JobRecord::id))
                    .forEach(j -> {
                        out.add(batchStep(j, now));
                        registry.of(j.id()).forEach(s -> out.add(toProto(j, s, now)));
                    });
            return out;
        });
    }

    private <T> CompletableFuture<T> call(Supplier<T> work) {
        return CompletableFuture.supplyAsync(work, onController);
    }

    private void prune() {
        List<Long> gone = registry.retainRunning(id -> {
            JobRecord j = state.job(id);
            return j != null && running(j);
        });
        gone.forEach(id -> writer.write(new StepChange.JobGone(id)));
    }

    /** Running or suspended (a suspended job's steps are stopped with it, and still exist). */
    private static boolean running(JobRecord j) {
        return (j.state() == JobState.RUNNING || j.state() == JobState.SUSPENDED) && !j.completing();
    }

    /** The batch step as answered at {@code now}: it runs as long as its job, so its run time is the job's. */
    private static Step batchStep(JobRecord j, Instant now) {
        return Step.newBuilder().setJobId(j.id()).setStepId("batch").setName("batch").setPartition(j.partition())
                .setUser(j.user()).setStartTime(ts(j.startTime())).addNodes(j.batchHost()).setNumTasks(1)
                .setState(j.state().name()).setNumCpus(j.allocation().get(0).cpus())
                .setTimeUsedSeconds(j.runSeconds(now)).build();
    }

    /** A step as answered at {@code now}, with its run time then ({@link StepRegistry.Step#runSeconds}). */
    private static Step toProto(JobRecord j, StepRegistry.Step s, Instant now) {
        return Step.newBuilder().setJobId(s.jobId()).setStepId(Integer.toString(s.stepId())).setName(s.name())
                .setPartition(j.partition()).setUser(j.user()).setStartTime(ts(s.startTime())).addAllNodes(s.nodes())
                .setNumTasks(s.numTasks()).setState(j.state().name()).addAllArgv(s.argv()).setNumCpus(s.numTasks())
                .setTimeUsedSeconds(s.runSeconds(j.runSeconds(now), now)).build();
    }

    private static Timestamp ts(Instant t) {
        return t == null ? Timestamp.getDefaultInstance() : Timestamp.newBuilder().setSeconds(t.getEpochSecond()).setNanos(t.getNano()).build();
    }
}
