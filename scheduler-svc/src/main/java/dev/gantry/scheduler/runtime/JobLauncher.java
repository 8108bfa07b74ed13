package dev.gantry.scheduler.runtime;

import com.google.protobuf.Timestamp;
import dev.gantry.api.v1.ArrayTask;
import dev.gantry.api.v1.LaunchCredential;
import dev.gantry.api.v1.LaunchJobRequest;
import dev.gantry.common.credential.CredentialSigner;
import dev.gantry.common.credential.CredentialVerifier;
import dev.gantry.scheduler.control.ArraySpec;
import dev.gantry.scheduler.model.JobRecord;
import dev.gantry.scheduler.model.JobState;
import dev.gantry.scheduler.model.NodeRecord;
import io.grpc.Status;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends launches (with a signed credential) and terminations to node agents, and turns their failures into
 * job outcomes on the controller thread. The launch goes to the batch host, the allocation's first node.
 */
public final class JobLauncher {

    private static final Logger LOG = LoggerFactory.getLogger(JobLauncher.class);
    /** How long a credential stays valid: long enough for a slow agent, short enough to limit replays. */
    static final long CREDENTIAL_LIFETIME_SECONDS = 300;

    private final AgentGateway agents;
    private final CredentialSigner signer;
    private Controller controller;

    public JobLauncher(AgentGateway agents, CredentialSigner signer) {
        this.agents = agents;
        this.signer = signer;
    }

    void bind(Controller controller) {
        this.controller = controller;
    }

    /** Launches a job just set RUNNING (controller thread). */
    void launch(JobRecord job) {
        NodeRecord host = controller.state.node(job.batchHost());
        Instant now = controller.clock.instant();
        byte[] script = job.spec().getScript().getBytes(StandardCharsets.UTF_8);
        LaunchCredential cred = LaunchCredential.newBuilder()
                .setJobId(job.id()).setUser(job.user()).setUid(job.uid()).setGid(job.gid())
                .addAllNodes(job.nodeNames())
                .setIssuedAt(ts(now)).setExpiresAt(ts(now.plusSeconds(CREDENTIAL_LIFETIME_SECONDS)))
                .setScriptSha256(CredentialVerifier.scriptDigest(script))
                .build();
        var spec = job.spec();
        LaunchJobRequest.Builder request = LaunchJobRequest.newBuilder()
                .setCredential(signer.sign(cred))
                .setJobId(job.id())
                .setJobName(job.name())
                .setScript(spec.getScript())
                .addAllArgv(spec.getArgvList())
                .setWorkDir(spec.getWorkDir())
                .setStdoutPath(spec.getStdoutPath())
                .setStderrPath(spec.getStderrPath())
                .putAllEnvironment(spec.getEnvironmentMap())
                .setPartition(job.partition())
                .setNumTasks(job.ask().numTasks())
                .setCpusOnNode(job.allocation().get(0).cpus())
                .setMemoryMb(job.allocation().get(0).memoryMb())
                .addAllCoreIds(job.allocation().get(0).coreIds()) // CR_Core: the agent binds the job to them
                .setSubmitDir(spec.getSubmitDir().isEmpty() ? spec.getWorkDir() : spec.getSubmitDir())
                .setSubmitHost(spec.getSubmitHost())
                .setTimeLimitSeconds(job.timeLimitSeconds())
                .setAccount(job.controls().account())
                .setQos(job.controls().qos())
                .setRestartCount(job.controls().restartCount());
        arrayTask(job, request);
        long t0 = System.nanoTime();
        agents.launch(host.agentAddress(), request.build()).whenComplete((response, error) -> {
            controller.metrics.launchRoundTrip(System.nanoTime() - t0, error == null);
            if (error != null) {
                controller.run(() -> launchFailed(job, error));
            }
        });
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
        JobRecord j = controller.state.job(launched.id());
        if (j == null || j.state() != JobState.RUNNING || !launched.startTime().equals(j.startTime())) {
            return; // cancelled or ended meanwhile
        }
        Status status = Status.fromThrowable(error);
        switch (status.getCode()) {
            case UNAVAILABLE, DEADLINE_EXCEEDED -> {
                NodeRecord n = controller.state.node(j.batchHost());
                controller.state.putNode(n.notRespondingSince("agent unreachable: " + status.getDescription()));
                controller.requeue(j, "agent on " + j.batchHost() + " unreachable");
            }
            default -> {
                String why = status.getDescription() == null ? status.getCode().name() : status.getDescription();
                LOG.warn("job {} launch refused on {}: {}", j.id(), j.batchHost(), why);
                controller.writer.write(controller.finish(j, JobState.FAILED, "launch failed: " + why, 1, 0,
                        controller.clock.instant()));
            }
        }
    }

    /** Starts the kill sequence on the job's batch host; retried while the agent is unreachable. */
    void terminate(JobRecord job, long killWaitSeconds, String why) {
        NodeRecord host = controller.state.node(job.batchHost());
        if (host == null || host.agentAddress().isEmpty()) {
            return;
        }
        agents.terminate(host.agentAddress(), job.id(), killWaitSeconds, why).whenComplete((r, error) -> {
            if (error != null) {
                Status s = Status.fromThrowable(error);
                LOG.warn("terminate job {} on {}: {}; retrying in 5 s", job.id(), job.batchHost(), s);
                Executor later = CompletableFuture.delayedExecutor(5, TimeUnit.SECONDS);
                later.execute(() -> controller.run(() -> {
                    JobRecord cur = controller.state.job(job.id());
                    if (cur != null && cur.completing()) {
                        terminate(cur, killWaitSeconds, why);
                    }
                }));
            }
        });
    }

    /**
     * Stops (or continues) a job's processes in place on its batch host, for gang scheduling; a failure is logged
     * and the next slice's decision corrects it.
     */
    void suspendOrResume(JobRecord job, boolean suspend) {
        NodeRecord host = controller.state.node(job.batchHost());
        if (host == null || host.agentAddress().isEmpty()) {
            return;
        }
        var call = suspend ? agents.suspend(host.agentAddress(), job.id()) : agents.resume(host.agentAddress(), job.id());
        call.whenComplete((r, error) -> {
            if (error != null) {
                LOG.warn("{} job {} on {}: {}", suspend ? "suspend" : "resume", job.id(), job.batchHost(),
                        Status.fromThrowable(error));
            }
        });
    }

    /** Kills a job an agent runs that the controller considers over (sent once; the agent re-reports it otherwise). */
    void terminateOrphan(NodeRecord node, long jobId, long killWaitSeconds) {
        agents.terminate(node.agentAddress(), jobId, killWaitSeconds, "orphan").whenComplete((r, error) -> {
            if (error != null) {
                LOG.warn("terminate orphan job {} on {}: {}", jobId, node.name(), Status.fromThrowable(error));
            }
        });
    }

    private static Timestamp ts(Instant t) {
        return Timestamp.newBuilder().setSeconds(t.getEpochSecond()).setNanos(t.getNano()).build();
    }
}
