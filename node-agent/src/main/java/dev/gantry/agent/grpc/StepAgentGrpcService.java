package dev.gantry.agent.grpc;

import com.google.protobuf.ByteString;
import dev.gantry.agent.job.StepCommand;
import dev.gantry.agent.process.JobSupervisor;
import dev.gantry.agent.process.StepRunner;
import dev.gantry.api.v1.LaunchCredential;
import dev.gantry.api.v1.RunStepRequest;
import dev.gantry.api.v1.StepAgentGrpc;
import dev.gantry.api.v1.StepEvent;
import dev.gantry.api.v1.TaskExit;
import dev.gantry.api.v1.TaskOutput;
import dev.gantry.common.auth.Identity;
import dev.gantry.common.authn.Callers;
import dev.gantry.common.credential.CredentialException;
import dev.gantry.common.credential.CredentialVerifier;
import io.grpc.Status;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.LongConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * gantry.v1.StepAgent: runs this node's tasks of a job step for srun. Checks the step credential as a launch
 * credential is checked (signature, expiry, this node, the job, the command's digest) and that it names this step;
 * a step id is started at most once here (replay). The job must be running on this node. Output and exits are
 * streamed as they come; a cancelled call (srun gone) kills the tasks. The tasks are processes of the job (its
 * cgroups, or under process-group containment their groups entered into the job's), so suspending, signalling
 * and terminating the job reach them, and the job's end waits for them.
 */
public final class StepAgentGrpcService extends StepAgentGrpc.StepAgentImplBase {

    private static final Logger LOG = LoggerFactory.getLogger(StepAgentGrpcService.class);

    private final String nodeName;
    private final CredentialVerifier verifier;
    private final JobSupervisor supervisor;
    private final StepRunner runner;
    private final LongConsumer launched;
    /**
     * "job.step" ids started on this node, until their credential expires (after that the credential check refuses
     * a replay anyway), so the set stays bounded. Guarded by itself.
     */
    private final java.util.Map<String, java.time.Instant> started = new java.util.HashMap<>();

    /** @param launched told the number of tasks of every step started here (metrics) */
    public StepAgentGrpcService(String nodeName, CredentialVerifier verifier, JobSupervisor supervisor, StepRunner runner,
            LongConsumer launched) {
        this.nodeName = nodeName;
        this.verifier = verifier;
        this.supervisor = supervisor;
        this.runner = runner;
        this.launched = launched;
    }

    @Override
    public void runStep(RunStepRequest request, StreamObserver<StepEvent> response) {
        String id = request.getJobId() + "." + request.getStepId();
        if (request.getArgvCount() == 0 || request.getTaskIdsCount() == 0 || !request.getWorkDir().startsWith("/")) {
            response.onError(Status.INVALID_ARGUMENT.withDescription("argv, task_ids and an absolute work_dir are required").asRuntimeException());
            return;
        }
        LaunchCredential cred;
        try {
            cred = verifier.verify(request.getCredential(), nodeName, request.getJobId(), StepCommand.digestInput(request.getArgvList()));
        } catch (CredentialException e) {
            response.onError(Status.PERMISSION_DENIED.withDescription(e.getMessage()).asRuntimeException());
            return;
        }
        if (!cred.getStepId().equals(request.getStepId())) {
            response.onError(Status.PERMISSION_DENIED.withDescription("the credential is not for step " + id).asRuntimeException());
            return;
        }
        // the caller must be the job's user (or root), whatever credential it holds: a step credential is not a bearer ticket
        Optional<Identity> caller = Callers.currentIfAny();
        if (caller.isPresent() && caller.get().uid() != 0 && caller.get().uid() != Integer.toUnsignedLong(cred.getUid())) {
            LOG.warn("step {}: refused to {} (uid {}): the job is {}'s", id, caller.get().user(), caller.get().uid(), cred.getUser());
            response.onError(Status.PERMISSION_DENIED.withDescription("job " + request.getJobId() + " belongs to " + cred.getUser()
                    + ", not to " + caller.get().user()).asRuntimeException());
            return;
        }
        synchronized (started) {
            java.time.Instant now = java.time.Instant.now();
            started.values().removeIf(expiry -> expiry.isBefore(now));
            java.time.Instant expiry = java.time.Instant.ofEpochSecond(cred.getExpiresAt().getSeconds(), cred.getExpiresAt().getNanos());
            if (started.putIfAbsent(id, expiry.isAfter(now) ? expiry : now.plusSeconds(1)) != null) {
                response.onError(Status.PERMISSION_DENIED.withDescription("step " + id + " was already started on this node (replayed credential)").asRuntimeException());
                return;
            }
        }
        Optional<JobSupervisor.StepHost> host = supervisor.stepHost(request.getJobId());
        if (host.isEmpty()) {
            response.onError(Status.FAILED_PRECONDITION.withDescription("job " + request.getJobId() + " is not running on " + nodeName).asRuntimeException());
            return;
        }
        List<StepRunner.Task> tasks = new ArrayList<>();
        for (int i = 0; i < request.getTaskIdsCount(); i++) {
            int taskId = request.getTaskIds(i);
            tasks.add(new StepRunner.Task(taskId, StepCommand.environment(request.getEnvironmentMap(), request.getJobId(), request.getStepId(),
                    request.getStepNodesList(), request.getNodeId(), nodeName, taskId, i, request.getNumTasks())));
        }
        ServerCallStreamObserver<StepEvent> out = (ServerCallStreamObserver<StepEvent>) response;
        java.util.concurrent.atomic.AtomicReference<StepRunner.Tasks> holder = new java.util.concurrent.atomic.AtomicReference<>();
        out.setOnCancelHandler(() -> {
            StepRunner.Tasks t = holder.get();
            if (t != null) {
                t.kill();
            }
        });
        StepRunner.StartResult result = runner.start(request.getArgvList(), Path.of(request.getWorkDir()), host.get().user(),
                host.get().joinFiles(), host.get().membership(), tasks, new StepRunner.Sink() {
                    @Override
                    public void output(int taskId, boolean stderr, byte[] data) {
                        send(out, StepEvent.newBuilder().setOutput(TaskOutput.newBuilder().setTaskId(taskId).setStderr(stderr)
                                .setData(ByteString.copyFrom(data))).build());
                    }

                    @Override
                    public void exit(int taskId, int exitCode) {
                        send(out, StepEvent.newBuilder().setExit(TaskExit.newBuilder().setTaskId(taskId).setExitCode(exitCode)).build());
                    }

                    @Override
                    public void done() {
                        LOG.info("step {}: every task on {} has exited", id, nodeName);
                        if (!out.isCancelled()) {
                            out.onCompleted();
                        }
                    }
                });
        if (result.problem().isPresent()) {
            response.onError(Status.FAILED_PRECONDITION.withDescription(result.problem().get()).asRuntimeException());
            return;
        }
        StepRunner.Tasks running = result.tasks().orElseThrow();
        holder.set(running);
        if (out.isCancelled()) {
            running.kill();
        }
        launched.accept(tasks.size());
        LOG.info("step {}: started {} task(s) on {}", id, tasks.size(), nodeName);
    }

    private static void send(ServerCallStreamObserver<StepEvent> out, StepEvent event) {
        if (!out.isCancelled()) {
            out.onNext(event);
        }
    }
}
