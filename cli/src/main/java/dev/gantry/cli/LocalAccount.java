package dev.gantry.cli;

/** The calling user and host, as sbatch records them and scontrol names groups. */
public interface LocalAccount {

    String userName();

    int uid();

    int gid();

    /** The host name (SLURM_SUBMIT_HOST). */
    String hostName();

    /** The name of group {@code gid}, or null when it has none. */
    String groupName(int gid);
}
