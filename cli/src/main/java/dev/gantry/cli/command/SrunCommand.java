package dev.gantry.cli.command;

import dev.gantry.api.v1.CompleteStepRequest;
import dev.gantry.api.v1.CreateStepRequest;
import dev.gantry.api.v1.CreateStepResponse;
import dev.gantry.api.v1.RunStepRequest;
import dev.gantry.api.v1.StepAgentGrpc;
import dev.gantry.cli.controller.CallerCredential;
import dev.gantry.api.v1.StepEvent;
import dev.gantry.api.v1.StepTarget;
import dev.gantry.cli.CliContext;
import dev.gantry.cli.controller.ControllerFailure;
import dev.gantry.cli.getopt.OptionSpec;
import dev.gantry.cli.getopt.ParsedArguments;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.okhttp.OkHttpChannelBuilder;
import io.grpc.stub.StreamObserver;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * srun inside an allocation (https://slurm.schedmd.com/srun.html): runs a job step on all or part of the job's
 * nodes ({@code -N}, {@code -n}, {@code -w}). The job is {@code --jobid} or SLURM_JOB_ID; the controller creates the
 * step (its id, layout and credential), srun starts each node's tasks on that node's agent (StepAgent.RunStep) and
 * copies their output to its own stdout and stderr as it comes, then reports the step's end. It exits with the
 * highest exit code of its tasks (1 when a node could not start its tasks). Allocating a new job (srun outside an
 * allocation) is not supported.
 */
public final class SrunCommand extends SlurmCommand {

    public SrunCommand(CliContext context) {
        super(context, "srun", LetterH.HELP);
    }

    @Override
    List<OptionSpec> options() {
        return List.of(
                OptionSpec.withValue('N', "nodes"),
                OptionSpec.withValue('n', "ntasks"),
                OptionSpec.withValue('w', "nodelist"),
                OptionSpec.withValue('J', "job-name"),
                OptionSpec.withValue('\0', "jobid"));
    }

    @Override
    boolean stopAtOperand() {
        return true;
    }

    @Override
    int execute(ParsedArguments arguments) {
        List<String> command = arguments.operands();
        if (command.isEmpty()) {
            return error("No command given to execute.");
        }
        String jobText = arguments.has("jobid") ? arguments.last("jobid") : context.environment().get("SLURM_JOB_ID");
        if (jobText == null || jobText.isBlank()) {
            return error("srun runs job steps inside an allocation (sbatch); SLURM_JOB_ID is not set and --jobid not given");
        }
        CreateStepRequest.Builder request = CreateStepRequest.newBuilder()
                .setUser(context.account().userName())
                .addAllArgv(command)
                .setWorkDir(context.workingDirectory().toString())
                .putAllEnvironment(context.environment());
        try {
            request.setJobId(Long.parseLong(jobText.trim()));
            request.setNodes(count(arguments, "nodes"));
            request.setNumTasks(count(arguments, "ntasks"));
        } catch (IllegalArgumentException e) {
            return error(e.getMessage());
        }
        if (arguments.has("nodelist")) {
            request.addNodeList(arguments.last("nodelist"));
        }
        if (arguments.has("job-name")) {
            request.setName(arguments.last("job-name"));
        }
        return inSession(session -> {
            CreateStepResponse step;
            try {
                step = session.steps().createStep(request.build());
            } catch (StatusRuntimeException e) {
                return error("Unable to create step for job " + request.getJobId() + ": " + describe(e));
            }
            int code = run(step, request.build());
            try {
                session.steps().completeStep(CompleteStepRequest.newBuilder().setJobId(request.getJobId())
                        .setStepId(step.getStep().getStepId()).setExitCode(code).build());
            } catch (StatusRuntimeException e) {
                error("could not report the end of step " + request.getJobId() + "." + step.getStep().getStepId() + ": " + describe(e));
            }
            return code;
        });
    }

    /** Starts the step's tasks on every node and copies their output until all have exited; the highest exit code. */
    private int run(CreateStepResponse step, CreateStepRequest asked) {
        String id = asked.getJobId() + "." + step.getStep().getStepId();
        List<ManagedChannel> channels = new ArrayList<>();
        CountDownLatch done = new CountDownLatch(step.getTargetsCount());
        AtomicInteger highest = new AtomicInteger();
        AtomicReference<String> failure = new AtomicReference<>();
        Object outputLock = new Object();
        // the agents check, as the controller did, that the step's tasks are started by the job's user
        CallerCredential credential = CallerCredential.forCommand(context.environment(), context.workingDirectory());
        for (StepTarget target : step.getTargetsList()) {
            ManagedChannel ch = OkHttpChannelBuilder.forTarget(target.getAddress()).intercept(credential).usePlaintext().build();
            channels.add(ch);
            RunStepRequest run = RunStepRequest.newBuilder().setCredential(step.getCredential()).setJobId(asked.getJobId())
                    .setStepId(step.getStep().getStepId()).addAllArgv(asked.getArgvList()).setWorkDir(asked.getWorkDir())
                    .putAllEnvironment(asked.getEnvironmentMap()).setNodeId(target.getNodeId()).addAllTaskIds(target.getTaskIdsList())
                    .setNumTasks(step.getStep().getNumTasks()).addAllStepNodes(step.getStep().getNodesList()).build();
            StepAgentGrpc.newStub(ch).runStep(run, new StreamObserver<>() {
                @Override
                public void onNext(StepEvent event) {
                    if (event.hasOutput()) {
                        synchronized (outputLock) {
                            var stream = event.getOutput().getStderr() ? context.err() : context.out();
                            try {
                                event.getOutput().getData().writeTo(stream);
                            } catch (IOException e) {
                                // stdout closed: nothing left to copy to
                            }
                            stream.flush();
                        }
                    } else if (event.hasExit()) {
                        int code = event.getExit().getExitCode();
                        highest.accumulateAndGet(code, Math::max);
                        if (code != 0) {
                            synchronized (outputLock) {
                                context.err().println("srun: error: " + target.getNode() + ": task " + event.getExit().getTaskId()
                                        + ": Exited with exit code " + code);
                            }
                        }
                    }
                }

                @Override
                public void onError(Throwable t) {
                    failure.compareAndSet(null, "Task launch for StepId=" + id + " failed on node " + target.getNode() + ": "
                            + describe(Status.fromThrowable(t).asRuntimeException()));
                    channels.forEach(ManagedChannel::shutdownNow); // the other nodes' tasks end with their calls
                    done.countDown();
                }

                @Override
                public void onCompleted() {
                    done.countDown();
                }
            });
        }
        try {
            done.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        channels.forEach(ManagedChannel::shutdownNow);
        context.out().flush();
        if (failure.get() != null) {
            error(failure.get());
            return Math.max(1, highest.get());
        }
        return highest.get();
    }

    private static int count(ParsedArguments arguments, String key) {
        if (!arguments.has(key)) {
            return 0;
        }
        String v = arguments.last(key);
        try {
            int n = Integer.parseInt(v.trim());
            if (n > 0) {
                return n;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException("Invalid numeric value \"" + v + "\" for --" + key);
    }

    private static String describe(StatusRuntimeException e) {
        return e.getStatus().getDescription() != null ? e.getStatus().getDescription() : ControllerFailure.describe(e);
    }

    @Override
    String usage() {
        return "Usage: srun [-N nodes] [-n ntasks] [-w hosts] [-J jobname] [--jobid=id] executable [args...]\n";
    }

    @Override
    String help() {
        return """
                Usage: srun [OPTIONS...] executable [args...]

                Runs a job step inside an allocation (SLURM_JOB_ID, or --jobid): one task per node unless -n
                says otherwise; the tasks' output is copied to srun's stdout and stderr.

                  -N, --nodes=N              number of the job's nodes to run on
                  -n, --ntasks=ntasks        number of tasks to run
                  -w, --nodelist=hosts...    run on these nodes of the job
                  -J, --job-name=jobname     name of the step
                      --jobid=id             run under this already allocated job

                Help options:
                  -h, --help                 show this help message
                      --usage                display brief usage message
                  -V, --version              output version information and exit
                """;
    }
}
