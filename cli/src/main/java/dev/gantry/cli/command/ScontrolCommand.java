package dev.gantry.cli.command;

import dev.gantry.api.v1.GetJobRequest;
import dev.gantry.api.v1.Job;
import dev.gantry.api.v1.ListJobsRequest;
import dev.gantry.api.v1.ListNodesRequest;
import dev.gantry.api.v1.ListPartitionsRequest;
import dev.gantry.api.v1.Node;
import dev.gantry.api.v1.Partition;
import dev.gantry.cli.CliContext;
import dev.gantry.cli.api.ClusterInfos;
import dev.gantry.cli.api.JobInfos;
import dev.gantry.cli.api.JobPages;
import dev.gantry.cli.controller.ControllerFailure;
import dev.gantry.cli.getopt.OptionSpec;
import dev.gantry.cli.getopt.ParsedArguments;
import dev.gantry.cli.scontrol.JobLayout;
import dev.gantry.cli.scontrol.NodeLayout;
import dev.gantry.cli.scontrol.PartitionLayout;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/**
 * scontrol: the {@code show job|node|partition [NAME]} subcommands (https://slurm.schedmd.com/scontrol.html),
 * with Slurm's abbreviations (j, n, pa) and messages, and the job controls hold, uhold, release, requeue,
 * requeuehold, top and update ({@link ScontrolJobControls}), {@code token} ({@link ScontrolToken}) and
 * {@code write batch_script} ({@link ScontrolBatchScript}). Any other keyword is "invalid keyword", exit 1.
 * {@code show job 123} of an array shows every task of it.
 */
public final class ScontrolCommand extends SlurmCommand {

    private boolean oneLiner;
    private boolean details;
    private boolean quiet;

    public ScontrolCommand(CliContext context) {
        super(context, "scontrol", LetterH.HELP);
    }

    @Override
    List<OptionSpec> options() {
        return List.of(
                OptionSpec.flag('o', "oneliner"),
                OptionSpec.flag('d', "details"),
                OptionSpec.flag('Q', "quiet"));
    }

    @Override
    int execute(ParsedArguments arguments) {
        oneLiner = arguments.has("oneliner");
        details = arguments.has("details");
        quiet = arguments.has("quiet");
        List<String> words = arguments.operands();
        if (words.isEmpty()) {
            return error("no command given (interactive mode is not supported); "
                    + "try: scontrol show job|node|partition [NAME]");
        }
        String keyword = words.get(0);
        if (ScontrolJobControls.handles(keyword)) {
            return inSession(session -> new ScontrolJobControls(context, session).run(words));
        }
        if (keyword.equalsIgnoreCase("token")) {
            return inSession(session -> new ScontrolToken(context).run(session, words.subList(1, words.size())));
        }
        if (abbreviates(keyword, "write", 5)) {
            return write(words);
        }
        if (!abbreviates(keyword, "show", 3)) {
            return fail("invalid keyword: " + keyword);
        }
        if (words.size() < 2) {
            return fail("too few arguments for keyword:" + keyword);
        }
        if (words.size() > 3) {
            return fail("too many arguments for keyword:" + keyword);
        }
        String entity = words.get(1);
        String name = words.size() > 2 ? words.get(2) : null;
        return inSession(session -> {
            if (abbreviates(entity, "jobs", 1)) {
                return showJobs(session, name);
            }
            if (abbreviates(entity, "nodes", 1)) {
                return showNodes(session, name);
            }
            if (abbreviates(entity, "partitions", 2)) {
                return showPartitions(session, name);
            }
            if (abbreviates(entity, "steps", 2)) {
                return StepListing.scontrol(context, session, name, oneLiner);
            }
            return fail("invalid entity:" + entity + " for keyword:" + keyword + " ");
        });
    }

    /** {@code write batch_script JOBID [FILE]}, with Slurm's argument messages; {@code write config} is not supported. */
    private int write(List<String> words) {
        if (words.size() < 2) {
            return fail("too few arguments for keyword:" + words.get(0));
        }
        String what = words.get(1);
        if (what.length() >= 5 && abbreviates(what, "batch_script", 5)) {
            if (words.size() > 4) {
                return fail("too many arguments for keyword:" + words.get(0));
            }
            return inSession(session -> new ScontrolBatchScript(context, quiet).run(session, words.subList(1, words.size())));
        }
        if (abbreviates(what, "config", 6)) {
            return error("write config is not supported: Gantry's configuration is the file the cluster started with");
        }
        return fail("invalid write argument:" + what);
    }

    private int showJobs(ControllerSession session, String id) {
        List<Job> jobs;
        try {
            if (id != null) {
                long jobId = parseJobId(id);
                if (jobId <= 0) {
                    return fail("slurm_load_jobs error: Invalid job id specified");
                }
                Job job = session.stub().getJob(GetJobRequest.newBuilder().setJobId(jobId).build()).getJob();
                jobs = job.getArrayJobId() == jobId ? arrayTasks(session, jobId) : List.of(job);
            } else {
                jobs = JobPages.all(session.stub(), ListJobsRequest.getDefaultInstance());
            }
        } catch (StatusRuntimeException e) {
            String why = e.getStatus().getCode() == Status.Code.NOT_FOUND
                    ? "Invalid job id specified" : ControllerFailure.describe(e);
            return fail("slurm_load_jobs error: " + why);
        }
        if (jobs.isEmpty()) {
            context.out().println("No jobs in the system");
            return 0;
        }
        JobLayout layout = details
                ? JobLayout.detailed(context.clock().instant(), context.zone(), context.account()::groupName, oneLiner,
                        threadsPerCore(session, jobs))
                : new JobLayout(context.clock().instant(), context.zone(), context.account()::groupName, oneLiner);
        jobs.stream().sorted(Comparator.comparingLong(Job::getJobId))
                .forEach(j -> context.out().print(layout.render(JobInfos.job(j))));
        return 0;
    }

    /**
     * ThreadsPerCore of the nodes the jobs hold (scontrol -d numbers the CPUs of their cores, as Slurm, which also
     * loads the nodes for it); 1 for any node not known, or when the nodes cannot be listed.
     */
    private static java.util.function.ToIntFunction<String> threadsPerCore(ControllerSession session, List<Job> jobs) {
        if (jobs.stream().allMatch(j -> j.getAllocationCount() == 0)) {
            return node -> 1;
        }
        java.util.Map<String, Integer> threads = new java.util.HashMap<>();
        try {
            session.stub().listNodes(ListNodesRequest.getDefaultInstance()).getNodesList()
                    .forEach(n -> threads.put(n.getName(), Math.max(1, n.getThreadsPerCore())));
        } catch (StatusRuntimeException e) {
            // the jobs still print; their CPU ids then count one thread per core
        }
        return node -> threads.getOrDefault(node, 1);
    }

    /** Every task of array {@code arrayJobId}. */
    private static List<Job> arrayTasks(ControllerSession session, long arrayJobId) {
        return JobPages.all(session.stub(), ListJobsRequest.newBuilder().addArrayJobIds(arrayJobId).build());
    }

    private int showNodes(ControllerSession session, String name) {
        NodeLayout layout = new NodeLayout(context.zone(), oneLiner);
        return showNamed(name, "Node", "slurm_load_node", Node::getName, n -> layout.render(ClusterInfos.node(n)),
                names -> session.stub().listNodes(ListNodesRequest.newBuilder().addAllNames(names).build())
                        .getNodesList());
    }

    private int showPartitions(ControllerSession session, String name) {
        PartitionLayout layout = new PartitionLayout(oneLiner);
        return showNamed(name, "Partition", "slurm_load_partitions", Partition::getName,
                p -> layout.render(ClusterInfos.partition(p)),
                names -> session.stub().listPartitions(ListPartitionsRequest.newBuilder().addAllNames(names).build())
                        .getPartitionsList());
    }

    /**
     * {@code show node|partition [NAME]}, as Slurm words it: "KIND NAME not found" (exit 1) or "No kinds in the
     * system" (exit 0) when there is none to show, "LOADCALL error: WHY" when the listing fails.
     *
     * @param list asks the controller for the named ones (all for an empty list)
     */
    private <T> int showNamed(String name, String kind, String loadCall, Function<T, String> nameOf,
                              Function<T, String> render, Function<List<String>, List<T>> list) {
        List<T> found;
        try {
            found = list.apply(name != null ? List.of(name) : List.of());
        } catch (StatusRuntimeException e) {
            return fail(loadCall + " error: " + ControllerFailure.describe(e));
        }
        if (name != null) {
            found = found.stream().filter(t -> nameOf.apply(t).equals(name)).toList();
        }
        if (found.isEmpty()) {
            context.out().println(name != null ? kind + " " + name + " not found"
                    : "No " + kind.toLowerCase(Locale.ROOT) + "s in the system");
            return name != null ? 1 : 0;
        }
        found.forEach(t -> context.out().print(render.apply(t)));
        return 0;
    }

    /** Slurm's keyword matching: {@code word} is a case-insensitive prefix of {@code full}, at least {@code min} long. */
    static boolean abbreviates(String word, String full, int min) {
        String w = word.toLowerCase(Locale.ROOT);
        return w.length() >= min && w.length() <= full.length() && full.startsWith(w);
    }

    private static long parseJobId(String text) {
        try {
            return Long.parseLong(text.trim());
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    @Override
    String usage() {
        return """
                Usage: scontrol [-o] show job|node|partition [NAME]
                       scontrol hold|uhold|release|requeue|requeuehold|top|suspend|resume JOB_LIST
                       scontrol update JobId=JOB_LIST [TimeLimit=[+|-]time] [Partition=name] [NumNodes=min[-max]]
                                [Priority=n] [Nice[=n]] [QOS=name] [Account=name]
                       scontrol [-Q] write batch_script JOB_ID [FILE|-]
                       scontrol token [lifespan=SECONDS] [username=USER]
                """;
    }

    @Override
    String help() {
        return """
                Usage: scontrol [OPTIONS] show ENTITY [NAME]
                  ENTITY is job, node or partition (or an abbreviation: j, n, pa); without NAME, all of them.
                       scontrol [OPTIONS] COMMAND JOB_LIST
                  hold         prevent a pending job from being started (an administrator's hold if you are one)
                  uhold        hold a job so that its user may release it
                  release      permit a held job to be started
                  requeue      requeue a running, suspended or finished batch job
                  requeuehold  requeue a job and hold it
                  top          put jobs at the top of your queue (same partition, account and QOS)
                  suspend      stop running jobs and release their CPUs (operators and administrators)
                  resume       restart jobs suspended by suspend, once their CPUs are free (operators, administrators)
                  update JobId=JOB_LIST Tag=value...   change a job: TimeLimit=[+|-]time, Partition=,
                               NumNodes=min[-max], Priority= (administrators), Nice[=n], QOS=, Account=
                  JOB_LIST is a comma or space separated list of job ids, array tasks (123_4) or arrays (123).
                       scontrol [OPTIONS] write batch_script JOB_ID [FILE]
                               write a job's batch script to FILE (default slurm-JOB_ID.sh; - for stdout): your own
                               jobs' only, unless you are an operator or administrator
                       scontrol token [lifespan=SECONDS] [username=USER]
                               print a JSON web token for you (any user: administrators) as SLURM_JWT=...

                Options:
                  -d, --details              show details: jobs' CPUs, memory and GRES per node
                  -o, --oneliner             print information one line per record
                  -Q, --quiet                don't print "written to" messages

                Help options:
                  -h, --help                 show this help message
                      --usage                display brief usage message

                Other options:
                  -V, --version              output version information and exit
                """;
    }
}
