package dev.gantry.scheduler.access;

import dev.gantry.common.config.ClusterConfig;
import dev.gantry.common.config.Keys;
import java.util.List;
import java.util.Set;

/**
 * The config's PrivateData= kinds (slurm.conf(5)): what users may not see of others. By default (none given) all
 * information is visible to all users, as in Slurm.
 *
 * @param kinds lower-case kinds as Keys.PRIVATE_DATA parsed them: jobs, usage, users, accounts, events, nodes,
 *     partitions, reservations, cloud
 */
public record PrivateData(Set<String> kinds) {

    public static final PrivateData NONE = new PrivateData(Set.of());

    public PrivateData {
        kinds = Set.copyOf(kinds);
    }

    public static PrivateData of(ClusterConfig config) {
        return of(config.get(Keys.PRIVATE_DATA));
    }

    public static PrivateData of(List<String> kinds) {
        return new PrivateData(Set.copyOf(kinds));
    }

    public boolean jobs() {
        return kinds.contains("jobs");
    }

    public boolean usage() {
        return kinds.contains("usage");
    }

    public boolean nodes() {
        return kinds.contains("nodes");
    }

    public boolean partitions() {
        return kinds.contains("partitions");
    }
}
