package dev.gantry.cli.command;

import dev.gantry.api.v1.JobSpec;
import dev.gantry.api.v1.SubmitJobRequest;
import dev.gantry.cli.CliContext;
import dev.gantry.cli.api.BatchJobSpecs;
import dev.gantry.cli.controller.ControllerFailure;
import dev.gantry.cli.getopt.Getopt;
import dev.gantry.cli.getopt.OptionSpec;
import dev.gantry.cli.getopt.ParsedArguments;
import dev.gantry.cli.getopt.UsageException;
import dev.gantry.cli.sbatch.BatchJob;
import dev.gantry.cli.sbatch.BatchScript;
import dev.gantry.cli.sbatch.ControlOptions;
import dev.gantry.cli.sbatch.InvalidSubmissionException;
import dev.gantry.cli.sbatch.SbatchOptions;
import dev.gantry.cli.sbatch.SbatchRequest;
import dev.gantry.cli.sbatch.Submitter;
import io.grpc.StatusRuntimeException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * sbatch: submits a batch script (https://slurm.schedmd.com/sbatch.html). Options come from #SBATCH lines
 * and the command line, the command line winning; everything after the script path is the script's.
 * Prints "Submitted batch job N" (--parsable: "N"); exit status 1 on any error.
 */
public final class SbatchCommand extends SlurmCommand {

    private static final String WRAP = "wrap";

    /** The options of the command line and of #SBATCH lines. */
    private static final List<OptionSpec> SPECS;

    static {
        List<OptionSpec> specs = new ArrayList<>(SbatchOptions.SPECS);
        specs.addAll(ControlOptions.SPECS);
        SPECS = List.copyOf(specs);
    }

    public SbatchCommand(CliContext context) {
        super(context, "sbatch", LetterH.HELP);
    }

    @Override
    List<OptionSpec> options() {
        List<OptionSpec> specs = new ArrayList<>(SPECS);
        specs.add(OptionSpec.withValue('\0', WRAP));
        return specs;
    }

    @Override
    boolean stopAtOperand() {
        return true;
    }

    @Override
    int execute(ParsedArguments arguments) {
        String wrap = arguments.last(WRAP);
        List<String> operands = arguments.operands();
        if (wrap != null && !operands.isEmpty()) {
            return error("Script arguments not permitted with --wrap option");
        }
        BatchScript script;
        String defaultName;
        List<String> scriptArgs = List.of();
        try {
            if (wrap != null) {
                script = BatchScript.wrap(wrap);
                defaultName = "wrap";
            } else if (!operands.isEmpty()) {
                Path file = context.workingDirectory().resolve(operands.get(0));
                script = new BatchScript(Files.readString(file, StandardCharsets.UTF_8));
                defaultName = file.getFileName().toString();
                scriptArgs = operands.subList(1, operands.size());
            } else {
                script = new BatchScript(new String(context.in().readAllBytes(), StandardCharsets.UTF_8));
                defaultName = "sbatch";
            }
        } catch (IOException | RuntimeException e) {
            return error(operands.isEmpty() ? "Unable to read the batch script from standard input"
                    : "Unable to open file " + operands.get(0));
        }
        if (!script.problems().isEmpty()) {
            return error(script.problems().toArray(String[]::new));
        }
        SbatchOptions fromScript;
        ControlOptions controlsFromScript;
        try {
            ParsedArguments directives = new Getopt(SPECS, false).parse(script.directiveArguments());
            if (!directives.operands().isEmpty()) {
                return error("Invalid directive found in batch script: " + directives.operands().get(0));
            }
            fromScript = SbatchOptions.from(directives);
            controlsFromScript = ControlOptions.from(directives);
        } catch (UsageException e) {
            context.err().println(name() + ": " + e.getMessage());
            return tryHelp();
        }
        SbatchOptions merged = fromScript.overriddenBy(SbatchOptions.from(arguments));
        ControlOptions controls = controlsFromScript.overriddenBy(ControlOptions.from(arguments));
        BatchJob request;
        try {
            BatchJob asked = new SbatchRequest(script, scriptArgs, defaultName, merged, submitter()).toRequest();
            request = controls.applyTo(asked, context.clock().instant(), context.zone());
        } catch (InvalidSubmissionException e) {
            return error(e.lines().toArray(String[]::new));
        }
        return submit(BatchJobSpecs.spec(request), merged.isParsable(), merged.isWaiting());
    }

    private Submitter submitter() {
        var account = context.account();
        return new Submitter(account.userName(), account.uid(), account.gid(), account.hostName(),
                context.workingDirectory(), context.environment());
    }

    private int submit(JobSpec spec, boolean parsable, boolean wait) {
        return inSession(session -> {
            long id;
            try {
                id = session.stub().submitJob(SubmitJobRequest.newBuilder().setSpec(spec).build()).getJobId();
            } catch (StatusRuntimeException e) {
                return error("Batch job submission failed: " + ControllerFailure.describe(e));
            }
            context.out().println(parsable ? Long.toString(id) : "Submitted batch job " + id);
            if (!wait) {
                return 0;
            }
            context.out().flush();
            try {
                return JobWait.await(session, id);
            } catch (StatusRuntimeException e) {
                return error("Job " + id + " wait failed: " + ControllerFailure.describe(e));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return error("Job " + id + " wait interrupted");
            }
        });
    }

    @Override
    String usage() {
        return """
                Usage: sbatch [-N nnodes] [-n ntasks] [-c ncpus] [-J jobname] [-p partition] [--mem=MB]
                              [--mem-per-cpu=MB] [--ntasks-per-node=n] [--gres=list] [--exclusive[=user]]
                              [-C list] [-w hosts] [-x hosts] [--contiguous] [-s]
                              [-t minutes] [-o out] [-e err] [-D path] [--parsable] [-W] [--wrap=command]
                              [-A account] [-q qos] [--nice[=value]] [-H] [-b time] [-d dependency]
                              [-a indexes] [--requeue] [--no-requeue]
                              [executable [args...]]
                """;
    }

    @Override
    String help() {
        return """
                Usage: sbatch [OPTIONS...] executable [args...]

                Parallel run options:
                  -c, --cpus-per-task=ncpus   number of cpus required per task
                  -D, --chdir=directory       set working directory for batch script
                  -e, --error=err             file for batch script's standard error
                  -J, --job-name=jobname      name of job
                  -n, --ntasks=ntasks         number of tasks to run
                  -N, --nodes=N               number of nodes on which to run (N = min[-max])
                  -o, --output=out            file for batch script's standard output
                  -p, --partition=partition   partition requested
                      --parsable              outputs only the jobid, only on successful submission
                  -t, --time=minutes          time limit
                  -W, --wait                  wait for completion of the submitted job; exit with its exit code
                      --wrap=command string   wrap command string in a sh script and submit
                      --mem=MB                minimum amount of real memory (K, M, G or T suffix)
                      --mem-per-cpu=MB        memory per allocated CPU (not with --mem)
                      --ntasks-per-node=n     number of tasks to invoke on each node
                      --gres=list             generic resources per node, e.g. gpu:2 or gpu:a100:1
                      --exclusive             allocate whole nodes, shared with no other job
                      --exclusive=user        share nodes only with your own jobs (preemption: no other user's
                                              job preempts it, nor does it preempt theirs)
                  -C, --constraint=list       node features: a&b, a|b, [a|b] (one set for all nodes), a*2
                  -w, --nodelist=hosts        nodes the job must include (host list)
                  -x, --exclude=hosts         nodes the job must not use (host list)
                      --contiguous            demand a contiguous range of nodes
                  -s, --oversubscribe         share resources with other jobs where the partition allows it
                  -A, --account=name          charge job to specified account
                  -q, --qos=qos               quality of service
                      --nice[=value]          decrease scheduling priority by value (default 100)
                  -H, --hold                  submit job in held state
                  -b, --begin=time            defer job until HH:MM MM/DD/YY
                  -d, --dependency=type:jobid[:time] defer job until condition on jobid is satisfied
                  -a, --array=indexes         job array index values
                      --requeue               if the job is preempted or its node fails, requeue it
                      --no-requeue            if the job is preempted or its node fails, do not requeue it

                Options may also be given in #SBATCH lines at the top of the script; the command line wins.
                The controller is found through GANTRY_CONTROLLER=host:port, $GANTRY_RUN_DIR/controller.addr,
                .gantry/controller.addr in this or a parent directory, or ~/.local/state/gantry/controller.addr.

                Help options:
                  -h, --help                  show this help message
                      --usage                 display brief usage message

                Other options:
                  -V, --version               output version information and exit
                """;
    }
}
