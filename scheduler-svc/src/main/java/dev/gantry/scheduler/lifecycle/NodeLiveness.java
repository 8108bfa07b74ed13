package dev.gantry.scheduler.lifecycle;

import dev.gantry.scheduler.model.NodeRecord;
import java.time.Instant;

/**
 * A node's agent registers, heartbeats, or stops answering (Slurm's SlurmdTimeout,
 * https://slurm.schedmd.com/slurm.conf.html#OPT_SlurmdTimeout). The jobs of a node that stops answering are decided
 * by {@code cycle.NodeFailurePolicy} and {@link JobEnding#nodeDown}.
 */
public final class NodeLiveness {

    private NodeLiveness() {}

    /** The node's agent registered: its new record, published. */
    public static Decision registered(NodeRecord updated) {
        return Decision.ofNode(updated, new Effect.PublishNode(updated.name()));
    }

    /** A heartbeat at {@code now}; a node that was not responding responds again, and may take jobs again. */
    public static Decision heartbeat(NodeRecord n, Instant now) {
        Decision seen = Decision.ofNode(n.seenAt(now));
        return n.notResponding() ? seen.with(new Effect.Note(false, "node " + n.name() + " responds again"),
                new Effect.PublishNode(n.name()), Effect.TRIGGER_PASS) : seen;
    }

    /**
     * The node stops taking jobs until its agent heartbeats again (DOWN, not responding, with {@code why}).
     *
     * @param publish whether the change is published now (a failed launch leaves that to its requeue or end)
     */
    public static Decision notResponding(NodeRecord n, String why, boolean publish) {
        NodeRecord down = n.notRespondingSince(why);
        return publish ? Decision.ofNode(down, new Effect.PublishNode(n.name())) : Decision.ofNode(down);
    }
}
