package dev.gantry.cli.sbatch;

import dev.gantry.cli.getopt.OptionSpec;
import dev.gantry.cli.getopt.ParsedArguments;
import java.util.List;

/**
 * The sbatch options Gantry supports, as given on the command line or in {@code #SBATCH} lines. Values
 * are kept as typed (null when not given) and checked when the job is built, so that a command-line value
 * overrides a directive before either is interpreted, as sbatch does.
 * See https://slurm.schedmd.com/sbatch.html#SECTION_OPTIONS.
 *
 * @param jobName -J, --job-name
 * @param partition -p, --partition (comma list)
 * @param nodes -N, --nodes (N or min-max)
 * @param ntasks -n, --ntasks
 * @param cpusPerTask -c, --cpus-per-task
 * @param mem --mem (K, M, G, T suffix; MiB by default)
 * @param time -t, --time
 * @param output -o, --output
 * @param error -e, --error
 * @param chdir -D, --chdir
 * @param parsable --parsable (null when not given)
 * @param waitForJob -W, --wait: wait for the job to end (null when not given)
 * @param ntasksPerNode --ntasks-per-node
 * @param memPerCpu --mem-per-cpu (same units as --mem); --mem and --mem-per-cpu exclude each other
 * @param gres --gres (comma list of name[:type][:count])
 * @param exclusive --exclusive (null when not given; "" when given without a value)
 * @param constraint -C, --constraint
 * @param nodelist -w, --nodelist (host list)
 * @param exclude -x, --exclude (host list)
 * @param contiguous --contiguous (null when not given)
 * @param oversubscribe -s, --oversubscribe (null when not given)
 */
public record SbatchOptions(String jobName, String partition, String nodes, String ntasks, String cpusPerTask,
                            String mem, String time, String output, String error, String chdir, Boolean parsable,
                            Boolean waitForJob, String ntasksPerNode, String memPerCpu, String gres, String exclusive,
                            String constraint, String nodelist, String exclude, Boolean contiguous,
                            Boolean oversubscribe) {

    /** The getopt table of these options (shared by the command line and #SBATCH lines). */
    public static final List<OptionSpec> SPECS = List.of(
            OptionSpec.withValue('J', "job-name"),
            OptionSpec.withValue('p', "partition"),
            OptionSpec.withValue('N', "nodes"),
            OptionSpec.withValue('n', "ntasks"),
            OptionSpec.withValue('c', "cpus-per-task"),
            OptionSpec.withValue('\0', "mem"),
            OptionSpec.withValue('t', "time"),
            OptionSpec.withValue('o', "output"),
            OptionSpec.withValue('e', "error"),
            OptionSpec.withValue('D', "chdir"),
            OptionSpec.flag('\0', "parsable"),
            OptionSpec.flag('W', "wait"),
            OptionSpec.withValue('\0', "ntasks-per-node"),
            OptionSpec.withValue('\0', "mem-per-cpu"),
            OptionSpec.withValue('\0', "gres"),
            OptionSpec.withOptionalValue('\0', "exclusive"),
            OptionSpec.withValue('C', "constraint"),
            OptionSpec.withValue('w', "nodelist"),
            OptionSpec.withValue('x', "exclude"),
            OptionSpec.flag('\0', "contiguous"),
            OptionSpec.flag('s', "oversubscribe"));

    /** The options found by getopt (the last occurrence of each wins). */
    public static SbatchOptions from(ParsedArguments args) {
        return new SbatchOptions(args.last("job-name"), args.last("partition"), args.last("nodes"),
                args.last("ntasks"), args.last("cpus-per-task"), args.last("mem"), args.last("time"),
                args.last("output"), args.last("error"), args.last("chdir"),
                args.flag("parsable"), args.flag("wait"), args.last("ntasks-per-node"), args.last("mem-per-cpu"),
                args.last("gres"), args.lastOrBare("exclusive"), args.last("constraint"), args.last("nodelist"),
                args.last("exclude"), args.flag("contiguous"), args.flag("oversubscribe"));
    }

    /**
     * These options with every option {@code later} sets taking its value (later wins). --mem and --mem-per-cpu
     * override each other as a pair: a later one of either replaces both earlier ones, as sbatch does.
     */
    public SbatchOptions overriddenBy(SbatchOptions later) {
        boolean laterMemory = later.mem != null || later.memPerCpu != null;
        return new SbatchOptions(pick(later.jobName, jobName), pick(later.partition, partition),
                pick(later.nodes, nodes), pick(later.ntasks, ntasks), pick(later.cpusPerTask, cpusPerTask),
                laterMemory ? later.mem : mem, pick(later.time, time), pick(later.output, output),
                pick(later.error, error), pick(later.chdir, chdir), pick(later.parsable, parsable),
                pick(later.waitForJob, waitForJob), pick(later.ntasksPerNode, ntasksPerNode),
                laterMemory ? later.memPerCpu : memPerCpu, pick(later.gres, gres), pick(later.exclusive, exclusive),
                pick(later.constraint, constraint), pick(later.nodelist, nodelist), pick(later.exclude, exclude),
                pick(later.contiguous, contiguous), pick(later.oversubscribe, oversubscribe));
    }

    private static <T> T pick(T preferred, T fallback) {
        return preferred != null ? preferred : fallback;
    }

    /** Whether --parsable was given. */
    public boolean isParsable() {
        return Boolean.TRUE.equals(parsable);
    }

    /** Whether -W/--wait was given. */
    public boolean isWaiting() {
        return Boolean.TRUE.equals(waitForJob);
    }
}
