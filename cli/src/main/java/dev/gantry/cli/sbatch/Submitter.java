package dev.gantry.cli.sbatch;

import java.nio.file.Path;
import java.util.Map;

/**
 * Who submits, from where: the facts sbatch records about its caller.
 *
 * @param user user name
 * @param uid numeric user id
 * @param gid primary group id
 * @param host the submit host (SLURM_SUBMIT_HOST)
 * @param directory the submit directory (SLURM_SUBMIT_DIR), absolute
 * @param environment the environment to export (sbatch --export=ALL)
 */
public record Submitter(String user, int uid, int gid, String host, Path directory, Map<String, String> environment) {

    public Submitter {
        if (!directory.isAbsolute()) {
            throw new IllegalArgumentException("submit directory must be absolute: " + directory);
        }
        environment = Map.copyOf(environment);
    }
}
