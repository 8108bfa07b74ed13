package dev.gantry.scheduler.runtime;

import com.google.protobuf.Timestamp;
import dev.gantry.api.v1.ArrayTask;
import dev.gantry.api.v1.FanoutTarget;
import dev.gantry.api.v1.LaunchCredential;
import dev.gantry.api.v1.LaunchJobRequest;
import dev.gantry.api.v1.NodeGrant;
import dev.gantry.api.v1.SignedCredential;
import dev.gantry.common.config.ClusterConfig;
import dev.gantry.common.config.Keys;
import dev.gantry.common.credential.CredentialSigner;
import dev.gantry.common.credential.CredentialVerifier;
import dev.gantry.common.credential.LaunchDigest;
import dev.gantry.scheduler.control.ArraySpec;
import dev.gantry.scheduler.lifecycle.Decision;
import dev.gantry.scheduler.lifecycle.JobEnding;
import dev.gantry.scheduler.lifecycle.JobExit;
import dev.gantry.scheduler.lifecycle.NodeLiveness;
import dev.gantry.scheduler.model.ClusterState;
import dev.gantry.scheduler.model.JobRecord;
import dev.gantry.scheduler.model.JobState;
import dev.gantry.scheduler.model.NodeRecord;
import dev.gantry.scheduler.model.NodeShare;
import io.grpc.Status;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends launches (with a signed credential) and terminations to node agents, and turns their failures into
 * job outcomes on the controller thread. The launch goes to the batch host, the allocation's first node, once:
 * for a multi-node job it carries the other nodes (addresses, shares) and TreeWidth, and the agents fan it out
 * among themselves (Slurm's tree forwarding), each verifying the credential itself. Terminate, suspend and
 * resume go to every node of the job.
 */
public final class JobLauncher {

    private static final Logger LOG = LoggerFactory.getLogger(JobLauncher.class);
    /** The trailer in which an agent of a launch's fan-out tree names the node whose part failed. */
    static final io.grpc.Metadata.Key<String> FAILED_NODE = io.grpc.Metadata.Key.of("gantry-failed-node", io.grpc.Metadata.ASCII_STRING_MARSHALLER);
    /** How long a credential stays valid: long enough for a slow agent, short enough to limit replays. */
    static final long CREDENTIAL_LIFETIME_SECONDS = 300;

    private final ClusterState state;
    private final CompletingJobs completing;
    private final AgentGateway agents;
    private final CredentialSigner signer;
    private final SchedulerMetrics metrics;
    private final InstantSource clock;
    private final Executor onController;
    private final Consumer<Decision> carryOut;
    private final ControlOrder controlOrder = new ControlOrder();
    private final long killWait;
    private final int treeWidth;

    /**
     * @param state read for the nodes' agent addresses and the jobs' current versions (on the controller thread)
     * @param onController runs the handling of the agents' answers on the controller thread
     * @param carryOut carries out what an agent's answer decides (a failed launch, a part gone): the {@link
     *     LifecycleApplier}, which in turn calls this launcher, so it is passed as a function
     */
    JobLauncher(ClusterConfig config, ClusterState state, CompletingJobs completing, AgentGateway agents,
            CredentialSigner signer, SchedulerMetrics metrics, InstantSource clock, Executor onController,
            Consumer<Decision> carryOut) {
        this.state = state;
        this.completing = completing;
        this.agents = agents;
        this.signer = signer;
        this.metrics = metrics;
        this.clock = clock;
        this.onController = onController;
        this.carryOut = carryOut;
        this.killWait = config.get(Keys.KILL_WAIT);
        this.treeWidth = config.get(Keys.TREE_WIDTH);
    }

    /** Launches a job just set RUNNING (controller thread). */
    void launch(JobRecord job) {
        prepare(job).send();
    }

    /** A launch ready to go: its credential signed and its request built. */
    final class Launch {
        private final JobRecord job;
        private final String node;
        private final String address;
        private final LaunchJobRequest request;

        private Launch(JobRecord job, String node, String address, LaunchJobRequest request) {
            this.job = job;
            this.node = node;
            this.address = address;
            this.request = request;
        }

        /** Sends it to the batch host's agent; a failure is handled on the controller thread. */
        void send() {
            long t0 = System.nanoTime();
            agents.launch(node, address, request).whenComplete((response, error) -> {
                metrics.launchRoundTrip(System.nanoTime() - t0, error == null);
                if (error != null) {
                    runOnController(() -> launchFailed(job, error));
                }
            });
        }
    }

    /**
     * Signs the credential of a job just set RUNNING and builds its launch, without sending it (controller thread): the
     * controller does this work before it sends anything that wakes other processes.
     */
    Launch prepare(JobRecord job) {
        NodeRecord host = state.node(job.batchHost());
        Instant now = clock.instant();
        byte[] script = job.request().script().getBytes(StandardCharsets.UTF_8);
        var spec = job.request();
        LaunchJobRequest.Builder request = LaunchJobRequest.newBuilder()
                .setJobId(job.id())
                .setJobName(job.name())
                .setScript(spec.script())
                .addAllArgv(spec.argv())
                .setWorkDir(spec.workDir())
                .setStdoutPath(spec.stdoutPath())
                .setStderrPath(spec.stderrPath())
                .putAllEnvironment(spec.environment())
                .setPartition(job.partition())
                .setNumTasks(job.ask().numTasks())
                .setCpusOnNode(job.allocation().get(0).cpus())
                .setMemoryMb(job.allocation().get(0).memoryMb())
                .addAllCoreIds(job.allocation().get(0).coreIds()) // CR_Core: the agent binds the job to them
                .setSubmitDir(spec.submitDir().isEmpty() ? spec.workDir() : spec.submitDir())
                .setSubmitHost(spec.submitHost())
                .setTimeLimitSeconds(job.timeLimitSeconds())
                .setAccount(job.controls().account())
                .setQos(job.controls().qos())
                .setRestartCount(job.controls().restartCount())
                .setStartSuspended(job.state() == JobState.SUSPENDED); // allocated onto a running job's resources
        arrayTask(job, request);
        fanout(job, request);
        // the credential covers the whole request (what every node acts on) and each node's share of the job
        LaunchCredential.Builder cred = LaunchCredential.newBuilder()
                .setJobId(job.id()).setUser(job.user()).setUid(job.uid()).setGid(job.gid())
                .addAllNodes(job.nodeNames())
                .setIssuedAt(ts(now)).setExpiresAt(ts(now.plusSeconds(CREDENTIAL_LIFETIME_SECONDS)))
                .setScriptSha256(CredentialVerifier.scriptDigest(script))
                .setRequestSha256(LaunchDigest.of(request.build()))
                .setRun(job.controls().restartCount());
        for (NodeShare share : job.allocation()) {
            cred.addGrants(NodeGrant.newBuilder().setNode(share.node()).setCpus(share.cpus()).setMemoryMb(share.memoryMb())
                    .addAllCoreIds(share.coreIds()));
        }
        request.setCredential(signer.sign(cred.build()));
        return new Launch(job, host.name(), host.agentAddress(), request.build());
    }

    /**
     * A credential for step {@code stepId} of a running job (srun): the job's user, the step's nodes, and the digest of
     * the step's command (each argument followed by a NUL byte, as the agents' StepCommand computes it).
     */
    SignedCredential stepCredential(JobRecord job, String stepId, List<String> nodes, List<String> argv) {
        Instant now = clock.instant();
        StringBuilder command = new StringBuilder();
        argv.forEach(a -> command.append(a).append('\0'));
        return signer.sign(LaunchCredential.newBuilder()
                .setJobId(job.id()).setUser(job.user()).setUid(job.uid()).setGid(job.gid())
                .addAllNodes(nodes).setStepId(stepId)
                .setIssuedAt(ts(now)).setExpiresAt(ts(now.plusSeconds(CREDENTIAL_LIFETIME_SECONDS)))
                .setScriptSha256(CredentialVerifier.scriptDigest(command.toString().getBytes(StandardCharsets.UTF_8)))
                .build());
    }

    /** A multi-node job: the nodes after the batch host, with their agents' addresses and shares, for the agents to fan out to. */
    private void fanout(JobRecord job, LaunchJobRequest.Builder request) {
        if (job.allocation().size() < 2) {
            return;
        }
        request.setBatchHost(job.batchHost()).setTreeWidth(treeWidth);
        for (NodeShare share : job.allocation().subList(1, job.allocation().size())) {
            NodeRecord n = state.node(share.node());
            request.addForwardTo(FanoutTarget.newBuilder().setNode(share.node())
                    .setAddress(n == null ? "" : n.agentAddress())
                    .setCpusOnNode(share.cpus()).setMemoryMb(share.memoryMb()).addAllCoreIds(share.coreIds()));
        }
    }

    /** SLURM_ARRAY_* for an array task: its place in the array as submitted. */
    private static void arrayTask(JobRecord job, LaunchJobRequest.Builder request) {
        var c = job.controls();
        if (!c.isArrayTask()) {
            return;
        }
        ArrayTask.Builder a = ArrayTask.newBuilder().setArrayJobId(c.arrayJobId()).setTaskId(c.arrayTaskId());
        try {
            ArraySpec spec = ArraySpec.parse(c.arraySpec(), Integer.MAX_VALUE, Integer.MAX_VALUE);
            a.setTaskCount(spec.count()).setTaskMin(spec.min()).setTaskMax(spec.max()).setTaskStep(spec.step());
        } catch (IllegalArgumentException e) {
            a.setTaskCount(1).setTaskMin(c.arrayTaskId()).setTaskMax(c.arrayTaskId()).setTaskStep(1);
        }
        request.setArray(a);
    }

    private void launchFailed(JobRecord launched, Throwable error) {
        JobRecord j = state.job(launched.id());
        if (j == null || j.state() != JobState.RUNNING || !launched.startTime().equals(j.startTime())) {
            return; // cancelled or ended meanwhile
        }
        Status status = Status.fromThrowable(error);
        switch (status.getCode()) {
            case ABORTED -> { // an agent of the fan-out tree could not reach another: that node failed, nothing ran
                String failed = Status.trailersFromThrowable(error) == null ? null
                        : Status.trailersFromThrowable(error).get(FAILED_NODE);
                NodeRecord n = failed == null ? null : state.node(failed);
                if (n != null && j.nodeNames().contains(failed) && !n.notResponding()) {
                    // kept out of placements until its agent heartbeats again
                    carryOut.accept(NodeLiveness.notResponding(n, "agent unreachable: " + status.getDescription(), false));
                }
                LOG.warn("job {} launch failed: {}", j.id(), status.getDescription());
                Instant now = clock.instant();
                carryOut.accept(j.controls().requeue()
                        ? JobEnding.requeue(j, "launch failed: " + status.getDescription(), now)
                        : JobEnding.finish(j, JobState.NODE_FAIL, "launch failed: " + status.getDescription(), 1, 0, now, now));
            }
            case UNAVAILABLE, DEADLINE_EXCEEDED -> {
                NodeRecord n = state.node(j.batchHost());
                carryOut.accept(NodeLiveness.notResponding(n, "agent unreachable: " + status.getDescription(), false));
                carryOut.accept(JobEnding.requeue(j, "agent on " + j.batchHost() + " unreachable",
                        clock.instant()));
            }
            default -> {
                String why = status.getDescription() == null ? status.getCode().name() : status.getDescription();
                LOG.warn("job {} launch refused on {}: {}", j.id(), j.batchHost(), why);
                Instant now = clock.instant();
                carryOut.accept(JobEnding.finish(j, JobState.FAILED, "launch failed: " + why, 1, 0, now, now));
            }
        }
    }

    /**
     * A multi-node job has ended on its batch host (or failed to launch): ends its part on each of {@code nodes} (the
     * allocation holder, step tasks, anything left of it), with the kill sequence. Idempotent on the agents; a node
     * that answers the job is not (or no longer) running there has nothing of it left.
     */
    void endParts(JobRecord job, List<String> nodes, String why) {
        for (String node : nodes) {
            NodeRecord n = state.node(node);
            if (n != null && !n.agentAddress().isEmpty()) {
                terminateOrphan(n, job.id(), job.controls().restartCount(), killWait, why);
            }
        }
    }

    /**
     * Starts the kill sequence on every node of the job: the batch host (retried while its agent is unreachable, as
     * its exit report ends the job) and, once each, the others.
     */
    void terminate(JobRecord job, long killWaitSeconds, String why) {
        for (String node : job.nodeNames().subList(Math.min(1, job.nodeNames().size()), job.nodeNames().size())) {
            NodeRecord n = state.node(node);
            if (n != null && !n.agentAddress().isEmpty()) {
                terminateOrphan(n, job.id(), job.controls().restartCount(), killWaitSeconds, why);
            }
        }
        NodeRecord host = state.node(job.batchHost());
        if (host == null || host.agentAddress().isEmpty()) {
            return;
        }
        agents.terminate(host.name(), host.agentAddress(), job.id(), job.controls().restartCount(), killWaitSeconds, why)
                .whenComplete((r, error) -> {
            if (error == null) {
                answered(job.id(), job.controls().restartCount(), host.name(), r);
            } else {
                Status s = Status.fromThrowable(error);
                LOG.warn("terminate job {} on {}: {}; retrying in 5 s", job.id(), job.batchHost(), s);
                Executor later = CompletableFuture.delayedExecutor(5, TimeUnit.SECONDS);
                later.execute(() -> runOnController(() -> {
                    JobRecord cur = state.job(job.id());
                    if (cur != null && cur.completing()) {
                        terminate(cur, killWaitSeconds, why);
                    }
                }));
            }
        });
    }

    /**
     * Stops (or continues) a job's processes in place on each of its nodes, naming its run; each node gets one job's
     * suspends and resumes one at a time, in decision order ({@link ControlOrder}). The agent applies one that comes
     * before or during the run's launch when the launch gets there, so the job starts stopped. A failure is logged.
     */
    void suspendOrResume(JobRecord job, boolean suspend) {
        int run = job.controls().restartCount();
        for (String node : job.nodeNames()) {
            NodeRecord host = state.node(node);
            if (host == null || host.agentAddress().isEmpty()) {
                continue;
            }
            String address = host.agentAddress();
            controlOrder.after(job.id(), node, () -> suspend
                    ? agents.suspend(node, address, job.id(), run).thenApply(r -> (Object) r)
                    : agents.resume(node, address, job.id(), run).thenApply(r -> (Object) r))
                    .whenComplete((r, error) -> {
                        if (error != null) {
                            LOG.warn("{} job {} on {}: {}", suspend ? "suspend" : "resume", job.id(), node, Status.fromThrowable(error));
                        }
                    });
        }
    }

    /**
     * scancel --signal: delivers {@code signal} to every process of the job on each of its nodes (each agent signals its
     * part: batch script, holder, step tasks). A failure is logged; there is nothing to retry.
     */
    void signal(JobRecord job, int signal) {
        for (String node : job.nodeNames()) {
            NodeRecord n = state.node(node);
            if (n == null || n.agentAddress().isEmpty()) {
                continue;
            }
            agents.signal(node, n.agentAddress(), job.id(), job.controls().restartCount(), signal).whenComplete((r, error) -> {
                if (error != null) {
                    LOG.warn("signal {} to job {} on {}: {}", signal, job.id(), node, Status.fromThrowable(error));
                }
            });
        }
    }

    /** The agent of {@code node} registered from {@code address}: a channel to it not connected is replaced by a fresh one. */
    void agentRegistered(String node, String address) {
        agents.registered(node, address);
    }

    /**
     * Kills run {@code run} of a job an agent runs that the controller considers over (sent once; the agent re-reports
     * it otherwise); {@link JobExit#UNNAMED_RUN}: whatever run the agent has (an older agent named none).
     */
    void terminateOrphan(NodeRecord node, long jobId, int run, long killWaitSeconds) {
        terminateOrphan(node, jobId, run, killWaitSeconds, "orphan");
    }

    private void terminateOrphan(NodeRecord node, long jobId, int run, long killWaitSeconds, String why) {
        agents.terminate(node.name(), node.agentAddress(), jobId, run, killWaitSeconds, why).whenComplete((r, error) -> {
            if (error != null) {
                LOG.warn("terminate ({}) job {} on {}: {}", why, jobId, node.name(), Status.fromThrowable(error));
            } else {
                answered(jobId, run, node.name(), r);
            }
        });
    }

    /**
     * An agent answered a terminate of run {@code run}: when the job was not (or no longer) running there, nothing of it
     * is left there — unless the terminate was for another run than the job's current one by the time the answer
     * comes (the answer says nothing about the current run's part).
     */
    private void answered(long jobId, int run, String node, dev.gantry.api.v1.TerminateJobResponse response) {
        if (!response.getWasRunning()) {
            runOnController(() -> {
                JobRecord cur = state.job(jobId);
                if (cur == null || JobExit.ofCurrentRun(cur, run)) {
                    carryOut.accept(completing.partGone(jobId, node, clock.instant()));
                }
            });
        }
    }

    /** Runs {@code work} on the controller thread; what it throws ends only its own future ({@link Controller#run}). */
    private void runOnController(Runnable work) {
        CompletableFuture.runAsync(work, onController);
    }

    private static Timestamp ts(Instant t) {
        return Timestamp.newBuilder().setSeconds(t.getEpochSecond()).setNanos(t.getNano()).build();
    }
}
