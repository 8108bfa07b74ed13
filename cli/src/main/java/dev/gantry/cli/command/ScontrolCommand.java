package dev.gantry.cli.command;

import dev.gantry.api.v1.GetJobRequest;
import dev.gantry.api.v1.Job;
import dev.gantry.api.v1.ListJobsRequest;
import dev.gantry.api.v1.ListNodesRequest;
import dev.gantry.api.v1.ListPartitionsRequest;
import dev.gantry.api.v1.Node;
import dev.gantry.api.v1.Partition;
import dev.gantry.cli.CliContext;
import dev.gantry.cli.controller.ControllerFailure;
import dev.gantry.cli.controller.ControllerNotFoundException;
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
        super(context, "scontrol");
    }

    @Override
    List<OptionSpec> options() {
        return List.of(
                OptionSpec.flag('o', "oneliner"),
                OptionSpec.flag('d', "details"),
                OptionSpec.flag('Q', "quiet"));
    }

    @Override
    boolean hIsHelp() {
        return true;
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
            try (ControllerSession session = ControllerSession.open(context)) {
                return new ScontrolJobControls(context, session).run(words);
            } catch (ControllerNotFoundException e) {
                return error(e.getMessage());
            }
        }
        if (keyword.equalsIgnoreCase("token")) {
            try (ControllerSession session = ControllerSession.open(context)) {
                return new ScontrolToken(context).run(session, words.subList(1, words.size()));
            } catch (ControllerNotFoundException e) {
                return error(e.getMessage());
            }
        }
        if (abbreviates(keyword, "write", 5)) {
            return write(words);
        }
        if (!abbreviates(keyword, "show", 3)) {
            context.err().println("invalid keyword: " + keyword);
            return 1;
        }
        if (words.size() < 2) {
            context.err().println("too few arguments for keyword:" + keyword);
            return 1;
        }
        if (words.size() > 3) {
            context.err().println("too many arguments for keyword:" + keyword);
            return 1;
        }
        String entity = words.get(1);
        String name = words.size() > 2 ? words.get(2) : null;
        try (ControllerSession session = ControllerSession.open(context)) {
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
            context.err().println("invalid entity:" + entity + " for keyword:" + keyword + " ");
            return 1;
        } catch (ControllerNotFoundException e) {
            return error(e.getMessage());
        }
    }

    /** {@code write batch_script JOBID [FILE]}, with Slurm's argument messages; {@code write config} is not supported. */
    private int write(List<String> words) {
        if (words.size() < 2) {
            context.err().println("too few arguments for keyword:" + words.get(0));
            return 1;
        }
        String what = words.get(1);
        if (what.length() >= 5 && abbreviates(what, "batch_script", 5)) {
            if (words.size() > 4) {
                context.err().println("too many arguments for keyword:" + words.get(0));
                return 1;
            }
            try (ControllerSession session = ControllerSession.open(context)) {
                return new ScontrolBatchScript(context, quiet).run(session, words.subList(1, words.size()));
            } catch (ControllerNotFoundException e) {
                return error(e.getMessage());
            }
        }
        if (abbreviates(what, "config", 6)) {
            return error("write config is not supported: Gantry's configuration is the file the cluster started with");
        }
        context.err().println("invalid write argument:" + what);
        return 1;
    }

    private int showJobs(ControllerSession session, String id) {
        List<Job> jobs;
        try {
            if (id != null) {
                long jobId = parseJobId(id);
                if (jobId <= 0) {
                    context.err().println("slurm_load_jobs error: Invalid job id specified");
                    return 1;
                }
                Job job = session.stub().getJob(GetJobRequest.newBuilder().setJobId(jobId).build()).getJob();
                jobs = job.getArrayJobId() == jobId ? arrayTasks(session, jobId) : List.of(job);
            } else {
                jobs = session.stub().listJobs(ListJobsRequest.getDefaultInstance()).getJobsList();
            }
        } catch (StatusRuntimeException e) {
            String why = e.getStatus().getCode() == Status.Code.NOT_FOUND
                    ? "Invalid job id specified" : ControllerFailure.describe(e);
            context.err().println("slurm_load_jobs error: " + why);
            return 1;
        }
        if (jobs.isEmpty()) {
            context.out().println("No jobs in the system");
            return 0;
        }
        JobLayout layout = details
                ? JobLayout.detailed(context.clock().instant(), context.zone(), context.account()::groupName, oneLiner,
                        threadsPerCore(session, jobs))
                : new JobLayout(context.clock().instant(), context.zone(), context.account()::groupName, oneLiner);
        jobs.stream().sorted(Comparator.comparingLong(Job::getJobId)).forEach(j -> context.out().print(layout.render(j)));
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
        return session.stub().listJobs(ListJobsRequest.getDefaultInstance()).getJobsList().stream()
                .filter(j -> j.getArrayJobId() == arrayJobId).toList();
    }

    private int showNodes(ControllerSession session, String name) {
        List<Node> nodes;
        try {
            ListNodesRequest.Builder request = ListNodesRequest.newBuilder();
            if (name != null) {
                request.addNames(name);
            }
            nodes = session.stub().listNodes(request.build()).getNodesList();
        } catch (StatusRuntimeException e) {
            context.err().println("slurm_load_node error: " + ControllerFailure.describe(e));
            return 1;
        }
        if (name != null) {
            nodes = nodes.stream().filter(n -> n.getName().equals(name)).toList();
        }
        if (nodes.isEmpty()) {
            context.out().println(name != null ? "Node " + name + " not found" : "No nodes in the system");
            return name != null ? 1 : 0;
        }
        NodeLayout layout = new NodeLayout(context.zone(), oneLiner);
        nodes.forEach(n -> context.out().print(layout.render(n)));
        return 0;
    }

    private int showPartitions(ControllerSession session, String name) {
        List<Partition> partitions;
        try {
            ListPartitionsRequest.Builder request = ListPartitionsRequest.newBuilder();
            if (name != null) {
                request.addNames(name);
            }
            partitions = session.stub().listPartitions(request.build()).getPartitionsList();
        } catch (StatusRuntimeException e) {
            context.err().println("slurm_load_partitions error: " + ControllerFailure.describe(e));
            return 1;
        }
        if (name != null) {
            partitions = partitions.stream().filter(p -> p.getName().equals(name)).toList();
        }
        if (partitions.isEmpty()) {
            context.out().println(name != null ? "Partition " + name + " not found" : "No partitions in the system");
            return name != null ? 1 : 0;
        }
        PartitionLayout layout = new PartitionLayout(oneLiner);
        partitions.forEach(p -> context.out().print(layout.render(p)));
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
