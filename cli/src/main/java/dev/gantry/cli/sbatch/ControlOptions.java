package dev.gantry.cli.sbatch;

import dev.gantry.cli.getopt.OptionSpec;
import dev.gantry.cli.getopt.ParsedArguments;
import dev.gantry.cli.text.NiceValue;
import dev.gantry.common.units.SlurmDate;
import java.time.Instant;
import java.time.ZoneId;
import java.time.temporal.ChronoUnit;
import java.util.List;

/**
 * sbatch's job-control options, from the command line or {@code #SBATCH} lines, kept as typed until the job is
 * built (https://slurm.schedmd.com/sbatch.html). sbatch checks --begin (resolved here against the client's clock and
 * zone, as sbatch does) and the --nice range itself; the account, QOS, dependency and array are checked by the
 * controller, which knows the accounts, the jobs and MaxArraySize. An array without -o writes to sbatch's
 * "slurm-%A_%a.out".
 *
 * @param account -A, --account
 * @param qos -q, --qos
 * @param nice --nice[=adjustment]: "" when given bare (100), null when absent
 * @param hold -H, --hold (null when absent)
 * @param begin -b, --begin
 * @param dependency -d, --dependency
 * @param array -a, --array
 * @param requeue --requeue (true) / --no-requeue (false), the later one winning; null when neither
 */
public record ControlOptions(String account, String qos, String nice, Boolean hold, String begin, String dependency,
                             String array, Boolean requeue) {

    /** sbatch's default output file of an array task, instead of slurm-%j.out. */
    public static final String ARRAY_OUTPUT = "slurm-%A_%a.out";

    /** The getopt table of these options. */
    public static final List<OptionSpec> SPECS = List.of(
            OptionSpec.withValue('A', "account"),
            OptionSpec.withValue('q', "qos"),
            OptionSpec.withOptionalValue('\0', "nice"),
            OptionSpec.flag('H', "hold"),
            OptionSpec.withValue('b', "begin"),
            OptionSpec.withValue('d', "dependency"),
            OptionSpec.withValue('a', "array"),
            OptionSpec.flag('\0', "requeue"),
            OptionSpec.flag('\0', "no-requeue"));

    public static ControlOptions from(ParsedArguments args) {
        Boolean requeue = null;
        for (ParsedArguments.Occurrence o : args.options()) {
            if (o.key().equals("requeue")) {
                requeue = Boolean.TRUE;
            } else if (o.key().equals("no-requeue")) {
                requeue = Boolean.FALSE;
            }
        }
        return new ControlOptions(args.last("account"), args.last("qos"), args.lastOrBare("nice"), args.flag("hold"),
                args.last("begin"), args.last("dependency"), args.last("array"), requeue);
    }

    /** These options with every option {@code later} sets taking its value. */
    public ControlOptions overriddenBy(ControlOptions later) {
        return new ControlOptions(pick(later.account, account), pick(later.qos, qos), pick(later.nice, nice),
                pick(later.hold, hold), pick(later.begin, begin), pick(later.dependency, dependency),
                pick(later.array, array), pick(later.requeue, requeue));
    }

    private static <T> T pick(T preferred, T fallback) {
        return preferred != null ? preferred : fallback;
    }

    /**
     * {@code request} with these options: an array without -o writes to {@link #ARRAY_OUTPUT}.
     *
     * @param now the client's clock, against which --begin is resolved
     * @param zone the client's zone, in which --begin's local times are read
     * @throws InvalidSubmissionException "Invalid --begin specification", "Nice value out of range (+/- 2147483645)",
     *         "Invalid --nice value"
     */
    public BatchJob applyTo(BatchJob request, Instant now, ZoneId zone) throws InvalidSubmissionException {
        Integer niceValue = nice != null ? nice(nice) : null;
        Instant at = null;
        if (begin != null) {
            try {
                at = SlurmDate.parse(begin, now, zone).truncatedTo(ChronoUnit.SECONDS);
            } catch (IllegalArgumentException e) {
                throw new InvalidSubmissionException(List.of(e.getMessage(), "Invalid --begin specification"));
            }
        }
        BatchJob out = request.withControls(new BatchControls(trim(account), trim(qos), niceValue,
                Boolean.TRUE.equals(hold), at, trim(dependency), trim(array), requeue));
        if (array != null && (out.stdoutPath() == null || out.stdoutPath().isEmpty())) {
            out = out.withStdoutPath(ARRAY_OUTPUT); // sbatch's default name for array tasks
        }
        return out;
    }

    private static String trim(String value) {
        return value == null ? null : value.trim();
    }

    /** --nice's value: bare = 100; beyond ±2147483645 refused as sbatch does. */
    private static int nice(String text) throws InvalidSubmissionException {
        if (text.isEmpty()) {
            return NiceValue.BARE;
        }
        try {
            return NiceValue.parse(text);
        } catch (NiceValue.Invalid e) {
            throw new InvalidSubmissionException(e.outOfRange()
                    ? "Nice value out of range (+/- " + NiceValue.MAX + ")" : "Invalid --nice value: " + text);
        }
    }
}
