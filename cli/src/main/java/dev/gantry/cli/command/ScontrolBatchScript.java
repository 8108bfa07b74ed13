package dev.gantry.cli.command;

import dev.gantry.api.v1.GetBatchScriptRequest;
import dev.gantry.cli.CliContext;
import dev.gantry.cli.controller.ControllerFailure;
import io.grpc.StatusRuntimeException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;

/**
 * {@code scontrol write batch_script JOBID [FILE]} (Slurm's scontrol_batch_script): the job's batch script into FILE,
 * by default {@code slurm-JOBID.sh} in the current directory, or to stdout for {@code -}; "batch script for job N
 * written to FILE" unless quiet. Only the job's owner, operators and administrators get it; anyone else reads
 * Slurm's "job script retrieval failed: Invalid user id". Unlike Slurm, which opens (and truncates) the file before
 * asking and removes it on failure, the script is fetched first, so a failure leaves an existing file alone; and a
 * failure exits 1 where Slurm's scontrol exits 0.
 */
final class ScontrolBatchScript {

    private final CliContext context;
    private final boolean quiet;

    ScontrolBatchScript(CliContext context, boolean quiet) {
        this.context = context;
        this.quiet = quiet;
    }

    /** @param words {@code batch_script JOBID [FILE]}, as given after {@code write} */
    int run(ControllerSession session, List<String> words) {
        if (words.size() < 2) {
            context.err().println("too few arguments for keyword:write");
            return 1;
        }
        String given = words.get(1).trim();
        String file = words.size() > 2 ? words.get(2) : "slurm-" + given + ".sh";
        long jobId;
        try {
            jobId = Long.parseLong(given);
        } catch (NumberFormatException e) {
            jobId = -1;
        }
        if (jobId <= 0) {
            return failed("Invalid job id specified");
        }
        String script;
        try {
            script = session.stub().getBatchScript(GetBatchScriptRequest.newBuilder().setJobId(jobId).build()).getScript();
        } catch (StatusRuntimeException e) {
            return failed(switch (e.getStatus().getCode()) {
                case NOT_FOUND -> "Invalid job id specified";
                case PERMISSION_DENIED -> "Invalid user id";
                default -> ControllerFailure.describe(e);
            });
        }
        if (file.equals("-")) {
            context.out().print(script);
            context.out().flush();
            return 0;
        }
        Path path = context.workingDirectory().resolve(file);
        try {
            Files.writeString(path, script, StandardCharsets.UTF_8);
        } catch (IOException e) {
            context.err().println("failed to open file `" + file + "`: " + reason(e));
            return 1;
        }
        if (!quiet) {
            context.out().println("batch script for job " + jobId + " written to " + file);
        }
        return 0;
    }

    private int failed(String why) {
        context.err().println("job script retrieval failed: " + why);
        return 1;
    }

    /** strerror's words for the usual failures. */
    private static String reason(IOException e) {
        if (e instanceof AccessDeniedException) {
            return "Permission denied";
        }
        if (e instanceof NoSuchFileException) {
            return "No such file or directory";
        }
        return e.getMessage();
    }
}
