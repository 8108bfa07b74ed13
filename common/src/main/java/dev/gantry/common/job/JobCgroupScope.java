package dev.gantry.common.job;

import java.nio.file.Path;

/**
 * The name of the cgroup directory one node agent keeps its jobs' cgroups in, in each hierarchy it uses:
 * {@code gantry_<node>_<8 hex digits of its spool directory>}. The agent makes its job cgroups there; {@code gantry
 * down} and {@code gantry up} find that directory by the same name to kill what a cluster left behind. Stable across
 * restarts of the agent (re-adoption finds its cgroups again) and distinct between agents that share a node name on one
 * host (several local clusters, tests).
 */
public final class JobCgroupScope {

    private JobCgroupScope() {
    }

    /** The scope directory's name for the agent of {@code nodeName} whose spool is {@code spoolDir}. */
    public static String name(String nodeName, Path spoolDir) {
        return "gantry_" + nodeName + "_" + String.format("%08x", spoolDir.toAbsolutePath().normalize().toString().hashCode());
    }
}
