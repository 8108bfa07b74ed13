package dev.gantry.scheduler.access;

/**
 * What a caller may see, after Slurm 22.05 (see the package note for the source of each rule). Pure and immutable.
 */
public record Visibility(PrivateData privateData) {

    /** A job or job step of {@code owner}: squeue, scontrol show job/step, WatchJobs, sprio. */
    public boolean seesJob(Requester who, String owner) {
        return !privateData.jobs() || who.privileged() || who.is(owner);
    }

    /**
     * A job's batch script and submitted environment: its owner, operators and administrators only, whatever
     * PrivateData says (Slurm's REQUEST_BATCH_SCRIPT rule).
     */
    public boolean seesJobInFull(Requester who, String owner) {
        return who.privileged() || who.is(owner);
    }

    /** One sshare row: an account row has an empty {@code rowUser}. */
    public boolean seesShareRow(Requester who, String rowUser) {
        return !privateData.usage() || who.privileged() || (!rowUser.isEmpty() && who.is(rowUser));
    }

    /** sinfo, scontrol show node. */
    public boolean seesNodes(Requester who) {
        return !privateData.nodes() || who.privileged();
    }

    /** sinfo, scontrol show partition. */
    public boolean seesPartitions(Requester who) {
        return !privateData.partitions() || who.privileged();
    }
}
