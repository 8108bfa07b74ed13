package dev.gantry.cli.sbatch;

import dev.gantry.api.v1.JobSpec;
import dev.gantry.common.hostlist.Hostlist;
import dev.gantry.common.resources.GresSpec;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The node-selection options of sbatch (--gres, --exclusive, -C, -w, -x, --contiguous, -s) checked as sbatch
 * checks them before submitting: syntax only. Whether a node has the feature, GRES or name is the controller's
 * question; it answers INVALID_ARGUMENT naming the limit.
 */
final class ResourceOptions {
    private ResourceOptions() {}

    /** @param submitDir where a relative -w/-x file name is read from */
    static void apply(SbatchOptions options, JobSpec.Builder spec, Path submitDir) throws InvalidSubmissionException {
        if (options.gres() != null && !options.gres().isBlank() && !options.gres().equalsIgnoreCase("none")) {
            for (String item : options.gres().split(",", -1)) {
                try {
                    GresSpec g = GresSpec.parse(item);
                    if (g.count() < 1) {
                        throw new IllegalArgumentException("zero count");
                    }
                    spec.addGres(g.toString());
                } catch (IllegalArgumentException e) {
                    throw new InvalidSubmissionException("Invalid generic resource (gres) specification");
                }
            }
        }
        if (options.exclusive() != null) {
            // --exclusive: whole nodes; --exclusive=user: nodes shared only with the user's own jobs (placement keeps
            // other users' jobs off them; in preemption it neither preempts nor is preempted by other users' jobs).
            // Slurm's mcs and topo are not supported.
            String kind = options.exclusive().trim().toLowerCase(java.util.Locale.ROOT);
            if (kind.isEmpty()) {
                spec.setExclusive(true);
            } else if (kind.equals("user")) {
                spec.setExclusiveUser(true);
            } else {
                throw new InvalidSubmissionException("Invalid --exclusive specification");
            }
        }
        if (options.constraint() != null && !options.constraint().isBlank()) {
            spec.setConstraint(options.constraint().trim());
        }
        if (options.nodelist() != null && !options.nodelist().isBlank()) {
            spec.setNodelist(hostlist(fromFile(options.nodelist(), "--nodelist", submitDir), "--nodelist"));
        }
        if (options.exclude() != null && !options.exclude().isBlank()) {
            spec.setExclude(hostlist(fromFile(options.exclude(), "--exclude", submitDir), "--exclude"));
        }
        if (Boolean.TRUE.equals(options.contiguous())) {
            spec.setContiguous(true);
        }
        if (Boolean.TRUE.equals(options.oversubscribe())) {
            spec.setOversubscribe(true);
        }
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
