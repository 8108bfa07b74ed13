package dev.gantry.cli.sbatch;

import dev.gantry.common.hostlist.Hostlist;
import dev.gantry.common.resources.GresSpec;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The node-selection options of sbatch (--gres, --exclusive, -C, -w, -x, --contiguous, -s) checked as sbatch
 * checks them before submitting: syntax only. Whether a node has the feature, GRES or name is the controller's
 * question; it answers INVALID_ARGUMENT naming the limit.
 */
final class ResourceOptions {
    private ResourceOptions() {}

    /**
     * The node selection these options ask for.
     *
     * @param submitDir where a relative -w/-x file name is read from
     */
    static BatchNodeSelection selection(SbatchOptions options, Path submitDir) throws InvalidSubmissionException {
        List<String> gres = new ArrayList<>();
        if (options.gres() != null && !options.gres().isBlank() && !options.gres().equalsIgnoreCase("none")) {
            for (String item : options.gres().split(",", -1)) {
                try {
                    GresSpec g = GresSpec.parse(item);
                    if (g.count() < 1) {
                        throw new IllegalArgumentException("zero count");
                    }
                    gres.add(g.toString());
                } catch (IllegalArgumentException e) {
                    throw new InvalidSubmissionException("Invalid generic resource (gres) specification");
                }
            }
        }
        boolean exclusive = false;
        boolean exclusiveUser = false;
        if (options.exclusive() != null) {
            // --exclusive: whole nodes; --exclusive=user: nodes shared only with the user's own jobs (placement keeps
            // other users' jobs off them; in preemption it neither preempts nor is preempted by other users' jobs).
            // Slurm's mcs and topo are not supported.
            String kind = options.exclusive().trim().toLowerCase(Locale.ROOT);
            if (kind.isEmpty()) {
                exclusive = true;
            } else if (kind.equals("user")) {
                exclusiveUser = true;
            } else {
                throw new InvalidSubmissionException("Invalid --exclusive specification");
            }
        }
        String constraint = options.constraint() != null && !options.constraint().isBlank()
                ? options.constraint().trim() : null;
        String nodelist = options.nodelist() != null && !options.nodelist().isBlank()
                ? hostlist(fromFile(options.nodelist(), "--nodelist", submitDir), "--nodelist") : null;
        String exclude = options.exclude() != null && !options.exclude().isBlank()
                ? hostlist(fromFile(options.exclude(), "--exclude", submitDir), "--exclude") : null;
        return new BatchNodeSelection(gres, exclusive, exclusiveUser, constraint, nodelist, exclude,
                Boolean.TRUE.equals(options.contiguous()), Boolean.TRUE.equals(options.oversubscribe()));
    }

    /** sbatch: a node list containing '/' names a file of node names (separated by white space or commas). */
    private static String fromFile(String value, String option, Path submitDir) throws InvalidSubmissionException {
        if (!value.contains("/")) {
            return value;
        }
        Path file = submitDir.resolve(value.trim());
        try {
            return String.join(",", Files.readString(file).trim().split("[\\s,]+"));
        } catch (IOException e) {
            throw new InvalidSubmissionException("Invalid node name specified for " + option + ": cannot read " + file);
        }
    }

    /** A host list, checked and compressed ("n1,n2,n3" becomes "n[1-3]"). */
    private static String hostlist(String value, String option) throws InvalidSubmissionException {
        try {
            var names = Hostlist.expand(value.trim());
            if (names.isEmpty()) {
                throw new IllegalArgumentException("empty");
            }
            return Hostlist.compress(names);
        } catch (IllegalArgumentException e) {
            throw new InvalidSubmissionException("Invalid node name specified for " + option + ": " + value);
        }
    }
}
