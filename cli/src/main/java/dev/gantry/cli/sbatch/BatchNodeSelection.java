package dev.gantry.cli.sbatch;

import java.util.List;

/**
 * sbatch's node-selection options as submitted ({@link ResourceOptions} checks them).
 *
 * @param gres --gres, one "name[:type]:count" per item
 * @param exclusive --exclusive: whole nodes
 * @param exclusiveUser --exclusive=user: nodes shared only with the user's own jobs
 * @param constraint -C; null when not given
 * @param nodelist -w as a compressed host list; null when not given
 * @param exclude -x as a compressed host list; null when not given
 * @param contiguous --contiguous
 * @param oversubscribe -s
 */
public record BatchNodeSelection(List<String> gres, boolean exclusive, boolean exclusiveUser, String constraint,
                            String nodelist, String exclude, boolean contiguous, boolean oversubscribe) {

    /** No node-selection option given. */
    public static final BatchNodeSelection NONE = new BatchNodeSelection(List.of(), false, false, null, null, null, false, false);

    public BatchNodeSelection {
        gres = List.copyOf(gres);
    }
}
