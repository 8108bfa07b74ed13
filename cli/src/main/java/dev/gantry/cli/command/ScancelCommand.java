package dev.gantry.cli.command;

import dev.gantry.api.v1.CancelJobRequest;
import dev.gantry.api.v1.CancelResult;
import dev.gantry.cli.CliContext;
import dev.gantry.cli.controller.ControllerFailure;
import dev.gantry.cli.controller.ControllerNotFoundException;
import dev.gantry.cli.getopt.OptionSpec;
import dev.gantry.cli.getopt.ParsedArguments;
import io.grpc.StatusRuntimeException;
import java.util.List;

/**
 * scancel: cancels jobs by id (https://slurm.schedmd.com/scancel.html). Each id the controller refuses is
 * reported as Slurm reports it, "scancel: error: Kill job error on job id N: REASON" (REASON is the
 * controller's Slurm text, e.g. "Invalid job id specified"), and makes the exit status 1. This is the
 * behaviour of Slurm up to 23.02; newer Slurm stays silent about unknown and finished jobs unless -v.
 */
public final class ScancelCommand extends SlurmCommand {

    public ScancelCommand(CliContext context) {
        super(context, "scancel");
    }

    @Override
    List<OptionSpec> options() {
        return List.of();
    }

    @Override
    boolean hIsHelp() {
        return true;
    }

    @Override
    int execute(ParsedArguments arguments) {
        if (arguments.operands().isEmpty()) {
            return error("No job identification provided");
        }
        CancelJobRequest.Builder request = CancelJobRequest.newBuilder().setUser(context.account().userName());
        for (String text : arguments.operands()) {
            Long id = parse(text);
            if (id == null) {
                return error("Invalid job id " + text);
            }
            request.addJobIds(id);
        }
        List<CancelResult> results;
        try (ControllerSession session = ControllerSession.open(context)) {
            results = session.stub().cancelJob(request.build()).getResultsList();
        } catch (ControllerNotFoundException e) {
            return error(e.getMessage());
        } catch (StatusRuntimeException e) {
            return error(ControllerFailure.describe(e));
        }
        int status = 0;
        for (CancelResult r : results) {
            if (!r.getOk()) {
                String why = r.getError().isEmpty() ? "Unspecified error" : r.getError();
                status = error("Kill job error on job id " + r.getJobId() + ": " + why);
            }
        }
        return status;
    }

    private static Long parse(String text) {
        try {
            long id = Long.parseLong(text.trim());
            return id > 0 ? id : null;
        } catch (NumberFormatException e) {
            return null;
        }
    }

    @Override
    String usage() {
        return "Usage: scancel [--help] [--usage] [--version] [job_id...]\n";
    }

    @Override
    String help() {
        return """
                Usage: scancel [OPTIONS] [job_id...]
                  Cancels the given jobs: pending ones end at once, running ones are signalled and killed.

                Help options:
                  -h, --help                      show this help message
                      --usage                     display brief usage message

                Other options:
                  -V, --version                   output version information and exit
                """;
    }
}
