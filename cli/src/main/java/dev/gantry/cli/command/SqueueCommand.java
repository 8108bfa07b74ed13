package dev.gantry.cli.command;

import dev.gantry.api.v1.ListJobsRequest;
import dev.gantry.cli.CliContext;
import dev.gantry.cli.api.JobInfos;
import dev.gantry.cli.api.JobPages;
import dev.gantry.cli.getopt.OptionSpec;
import dev.gantry.cli.getopt.ParsedArguments;
import dev.gantry.cli.model.JobInfo;
import dev.gantry.cli.squeue.JobFilter;
import dev.gantry.cli.squeue.JobFormat;
import dev.gantry.cli.squeue.JobOrder;
import dev.gantry.cli.squeue.JobStates;
import dev.gantry.cli.squeue.QueueReport;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * squeue: lists jobs (https://slurm.schedmd.com/squeue.html). Slurm's default format, sort and state
 * selection; -o, -S, -t, -j, -u, -p, -h and -l as Slurm interprets them, and SQUEUE_FORMAT, SQUEUE_SORT and
 * SQUEUE_STATES from the environment; --start (Slurm's START_TIME layout, pending jobs by expected start) and
 * -r (one line per array task; otherwise an array's pending tasks show as one line, 123_[5-99%10]). As in Slurm, a single job id the controller does not know is an error
 * ("slurm_load_jobs error: Invalid job id specified", exit 1), while unknown ids in a longer list are not shown.
 */
public final class SqueueCommand extends SlurmCommand {

    public SqueueCommand(CliContext context) {
        super(context, "squeue", LetterH.NOHEADER);
    }

    @Override
    List<OptionSpec> options() {
        return List.of(
                OptionSpec.withValue('o', "format"),
                OptionSpec.flag('l', "long"),
                OptionSpec.withOptionalValue('j', "jobs", "job"),
                OptionSpec.withValue('u', "user", "users"),
                OptionSpec.flag('\0', "me"),
                OptionSpec.withValue('p', "partition", "partitions"),
                OptionSpec.withValue('t', "states"),
                OptionSpec.withValue('S', "sort"),
                OptionSpec.flag('a', "all"),
                OptionSpec.flag('\0', "start"),
                OptionSpec.flag('r', "array"),
                OptionSpec.withOptionalValue('s', "steps"));
    }

    @Override
    int execute(ParsedArguments arguments) {
        List<String> operands = arguments.operands();
        boolean jobFlag = arguments.has("jobs");
        String jobList = arguments.last("jobs");
        if (jobFlag && jobList == null && !operands.isEmpty()) {
            jobList = operands.get(0);
            operands = operands.subList(1, operands.size());
        }
        refuseOperands(operands);
        boolean noHeader = arguments.has("noheader");
        if (arguments.has("steps")) {
            String steps = arguments.last("steps") != null ? arguments.last("steps") : jobList;
            return inSession(session -> StepListing.squeue(context, session, steps, !noHeader));
        }
        boolean longReport = arguments.has("long");
        JobStates.StateFilter states = null;
        Set<Long> ids = new LinkedHashSet<>();
        Set<String> tasks = new LinkedHashSet<>();
        Set<Long> arrays = new LinkedHashSet<>();
        JobOrder order;
        try {
            boolean start = arguments.has("start");
            String st = arguments.has("states") ? arguments.last("states")
                    : start ? "PENDING" : context.environment().get("SQUEUE_STATES");
            if (st != null) {
                states = JobStates.parse(st);
            }
            if (jobList != null) {
                for (String id : jobList.split(",")) {
                    String t = id.trim();
                    int under = t.indexOf('_');
                    if (under > 0) {
                        tasks.add(jobId(t.substring(0, under)) + "_" + taskId(t.substring(under + 1), t));
                        arrays.add(jobId(t.substring(0, under)));
                    } else {
                        ids.add(jobId(t));
                    }
                }
            }
            String sort = arguments.has("sort") ? arguments.last("sort")
                    : start ? "S" : context.environment().getOrDefault("SQUEUE_SORT", JobOrder.DEFAULT);
            order = JobOrder.parse(sort);
        } catch (IllegalArgumentException e) {
            return error(e.getMessage().split("\n"));
        }
        JobFormat format = JobFormat.parse(formatString(arguments, longReport));
        format.unknownCodes().forEach(c -> error("Invalid job format specification: " + c));
        Set<String> users = names(arguments.has("me") ? context.account().userName() : arguments.last("user"));
        Set<String> partitions = names(arguments.last("partition"));

        JobStates.StateFilter stateFilter = states;
        List<JobInfo> fetched = ask(session -> {
            // page by page, each mapped as it comes: only the report's form of a long queue is held
            List<JobInfo> infos = new ArrayList<>();
            JobPages.each(session.stub(), request(ids, arrays, users, partitions, stateFilter),
                    page -> infos.addAll(JobInfos.jobs(page)));
            return infos;
        }, failure -> fail("slurm_load_jobs error: " + failure));
        if (ids.size() + tasks.size() == 1 && fetched.stream().noneMatch(new JobFilter(ids, Set.of(), Set.of(),
                JobStates.StateFilter.ALL, tasks)::matches)) {
            return fail("slurm_load_jobs error: Invalid job id specified");
        }
        Instant now = context.clock().instant();
        if (longReport && !noHeader) {
            // ctime(3)'s layout, as Slurm's print_date()
            DateTimeFormatter ctime = DateTimeFormatter.ofPattern("EEE MMM ppd HH:mm:ss yyyy", Locale.ROOT);
            context.out().println(ctime.format(now.atZone(context.zone())));
        }
        QueueReport report = new QueueReport(format, order, new JobFilter(ids, users, partitions, states, tasks), !noHeader,
                arguments.has("array"));
        report.lines(fetched, now, context.timeZone()).forEach(context.out()::println);
        return 0;
    }

    private String formatString(ParsedArguments arguments, boolean longReport) {
        if (arguments.has("format")) {
            return arguments.last("format");
        }
        if (longReport) {
            return JobFormat.LONG;
        }
        if (arguments.has("start")) {
            return JobFormat.START;
        }
        return context.environment().getOrDefault("SQUEUE_FORMAT", JobFormat.DEFAULT);
    }

    /**
     * What to ask the controller, in squeue's view: the named jobs and every job of the named arrays (an id may be an
     * array's, which names all its tasks). A single id is asked alone, so that "unknown" can be told from
     * "filtered out"; otherwise filters go to the server and are applied again here.
     */
    private static ListJobsRequest request(Set<Long> ids, Set<Long> arrays, Set<String> users, Set<String> partitions,
                                           JobStates.StateFilter states) {
        Set<Long> anyArray = new LinkedHashSet<>(ids);
        anyArray.addAll(arrays);
        ListJobsRequest.Builder r = ListJobsRequest.newBuilder().addAllJobIds(ids).addAllArrayJobIds(anyArray)
                .setView(dev.gantry.api.v1.JobView.JOB_VIEW_SUMMARY);
        if (anyArray.size() == 1) {
            return r.build();
        }
        r.addAllUsers(users).addAllPartitions(partitions);
        if (states != null && !states.all() && !states.completing()) {
            r.addAllStates(JobInfos.toProto(states.states()));
        }
        return r.build();
    }

    private static long jobId(String text) {
        try {
            long id = Long.parseLong(text);
            if (id > 0) {
                return id;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException("Invalid job id: " + text);
    }

    private static int taskId(String text, String whole) {
        try {
            int id = Integer.parseInt(text);
            if (id >= 0) {
                return id;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException("Invalid job id: " + whole);
    }

    @Override
    String usage() {
        return """
                Usage: squeue [-j jobid] [-o format] [-p partitions] [--sort fields] [-t states]
                              [-u user_name] [--me] [--start] [-ahlr]
                """;
    }

    @Override
    String help() {
        return """
                Usage: squeue [OPTIONS]
                  -a, --all                       display jobs in hidden partitions (Gantry has none)
                  -h, --noheader                  no headers on output
                  -j, --jobs=job(s)               comma separated list of jobs IDs to view, default is all
                  -l, --long                      long report
                      --me                        equivalent to --user=<my username>
                  -o, --format=format             format specification
                  -p, --partition=partition(s)    comma separated list of partitions to view, default is all partitions
                  -r, --array                     display one job array element per line
                      --start                     print expected start times of pending jobs
                  -S, --sort=fields               comma separated list of fields to sort on
                  -t, --states=states             comma separated list of states to view, default is pending and
                                                  running, '--states=all' reports all states
                  -u, --user=user_name(s)         comma separated list of users to view

                Help options:
                      --help                      show this help message
                      --usage                     display a brief summary of squeue options

                Other options:
                  -V, --version                   output version information and exit
                """;
    }
}
