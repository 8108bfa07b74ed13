package dev.gantry.cli.command;

import dev.gantry.api.v1.CancelJobRequest;
import dev.gantry.api.v1.CancelResult;
import dev.gantry.api.v1.Job;
import dev.gantry.api.v1.ListJobsRequest;
import dev.gantry.cli.CliContext;
import dev.gantry.cli.api.JobInfos;
import dev.gantry.cli.api.JobPages;
import dev.gantry.cli.controller.ControllerFailure;
import dev.gantry.cli.controller.ControllerNotFoundException;
import dev.gantry.cli.getopt.OptionSpec;
import dev.gantry.cli.getopt.ParsedArguments;
import dev.gantry.cli.scontrol.JobIdList;
import dev.gantry.cli.text.SignalNames;
import io.grpc.StatusRuntimeException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * scancel: cancels jobs by id (https://slurm.schedmd.com/scancel.html). Each id the controller refuses is
 * reported as Slurm reports it, "scancel: error: Kill job error on job id N: REASON" (REASON is the
 * controller's Slurm text, e.g. "Invalid job id specified"), and makes the exit status 1. This is the
 * behaviour of Slurm up to 23.02; newer Slurm stays silent about unknown and finished jobs unless -v. An array's
 * id cancels every task of it (the controller's rule); {@code 123_4} and {@code 123_[1-3]} cancel those tasks.
 * {@code -s/--signal SIG} signals instead of cancelling: every process of the job on every node gets it (Slurm's
 * {@code --full}, which {@code -f} also names; Slurm without it spares the batch shell, which Gantry does not).
 */
public final class ScancelCommand extends SlurmCommand {

    public ScancelCommand(CliContext context) {
        super(context, "scancel", LetterH.HELP);
    }

    private static final String SIGNAL = "signal";
    private static final String FULL = "full";

    @Override
    List<OptionSpec> options() {
        return List.of(OptionSpec.withValue('s', SIGNAL), OptionSpec.flag('f', FULL));
    }

    @Override
    int execute(ParsedArguments arguments) {
        if (arguments.operands().isEmpty()) {
            return error("No job identification provided");
        }
        CancelJobRequest.Builder request = CancelJobRequest.newBuilder().setUser(context.account().userName());
        if (arguments.has(SIGNAL)) {
            int signal = SignalNames.parse(arguments.last(SIGNAL) == null ? "" : arguments.last(SIGNAL));
            if (signal == 0) {
                return error("Unknown job signal: " + arguments.last(SIGNAL));
            }
            request.setSignal(signal);
        }
        List<String> tasks = new ArrayList<>();
        for (String text : arguments.operands()) {
            if (text.contains("_")) {
                tasks.add(text.trim());
                continue;
            }
            Long id = parse(text);
            if (id == null) {
                return error("Invalid job id " + text);
            }
            request.addJobIds(id);
        }
        Map<Long, String> names = new HashMap<>();
        int status = 0;
        List<CancelResult> results;
        try (ControllerSession session = ControllerSession.open(context)) {
            if (!tasks.isEmpty()) {
                JobIdList list;
                try {
                    list = JobIdList.parse(String.join(",", tasks));
                } catch (IllegalArgumentException e) {
                    return error("Invalid job id " + e.getMessage());
                }
                List<String> unknown = new ArrayList<>();
                // the named arrays' jobs alone, not the whole queue
                List<Job> known = JobPages.all(session.stub(), ListJobsRequest.newBuilder().addAllJobIds(list.baseIds())
                        .addAllArrayJobIds(list.baseIds()).setView(dev.gantry.api.v1.JobView.JOB_VIEW_SUMMARY).build());
                for (JobIdList.Target t : list.resolve(JobInfos.jobs(known), unknown)) {
                    request.addJobIds(t.jobId());
                    names.put(t.jobId(), t.display());
                }
                for (String u : unknown) {
                    status = error("Kill job error on job id " + u + ": Invalid job id specified");
                }
                if (request.getJobIdsCount() == 0) {
                    return status;
                }
            }
            results = session.stub().cancelJob(request.build()).getResultsList();
        } catch (ControllerNotFoundException e) {
            return error(e.getMessage());
        } catch (StatusRuntimeException e) {
            return error(ControllerFailure.describe(e));
        }
        for (CancelResult r : results) {
            if (!r.getOk()) {
                String why = r.getError().isEmpty() ? "Unspecified error" : r.getError();
                status = error("Kill job error on job id " + names.getOrDefault(r.getJobId(),
                        Long.toString(r.getJobId())) + ": " + why);
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
        return "Usage: scancel [-f] [-s signal] [--help] [--usage] [--version] [job_id...]\n";
    }

    @Override
    String help() {
        return """
                Usage: scancel [OPTIONS] [job_id...]
                  Cancels the given jobs: pending ones end at once, running ones are signalled and killed.

                  -f, --full                      with --signal: every process of the job (always so in Gantry)
                  -s, --signal=name | integer     signal the jobs instead of cancelling them: every process
                                                  of each job, on every node of it

                Help options:
                  -h, --help                      show this help message
                      --usage                     display brief usage message

                Other options:
                  -V, --version                   output version information and exit
                """;
    }
}
