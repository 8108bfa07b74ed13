package dev.gantry.scheduler.lifecycle;

import dev.gantry.scheduler.model.JobRecord;
import dev.gantry.scheduler.model.NodeRecord;
import java.util.ArrayList;
import java.util.List;

/**
 * A transition's result: the jobs' and nodes' new versions, to put into the controller's state in this order, and the
 * effects to carry out after. {@link #NONE} changes nothing.
 */
public record Decision(List<JobRecord> records, List<NodeRecord> nodes, List<Effect> effects) {

    public static final Decision NONE = new Decision(List.of(), List.of());

    public Decision {
        records = List.copyOf(records);
        nodes = List.copyOf(nodes);
        effects = List.copyOf(effects);
    }

    /** New job versions and effects; no node changes. */
    public Decision(List<JobRecord> records, List<Effect> effects) {
        this(records, List.of(), effects);
    }

    /** A node's new version and its effects. */
    public static Decision ofNode(NodeRecord node, Effect... effects) {
        return new Decision(List.of(), List.of(node), List.of(effects));
    }

    /** One new version and its effects. */
    public static Decision of(JobRecord record, Effect... effects) {
        return new Decision(List.of(record), List.of(effects));
    }

    /**
     * A new version that takes or gives back nothing (a hold, a release, an edit of a pending job): kept and
     * persisted, nothing else.
     */
    public static Decision kept(JobRecord record) {
        return of(record, new Effect.Persist(record));
    }

    /** This decision, then {@code next}: records and effects in that order. */
    public Decision and(Decision next) {
        if (next.isEmpty()) {
            return this;
        }
        List<JobRecord> r = new ArrayList<>(records);
        r.addAll(next.records);
        List<NodeRecord> n = new ArrayList<>(nodes);
        n.addAll(next.nodes);
        List<Effect> e = new ArrayList<>(effects);
        e.addAll(next.effects);
        return new Decision(r, n, e);
    }

    /** The same with {@code more} effects after this one's. */
    public Decision with(Effect... more) {
        List<Effect> e = new ArrayList<>(effects);
        e.addAll(List.of(more));
        return new Decision(records, nodes, e);
    }

    public boolean isEmpty() {
        return records.isEmpty() && nodes.isEmpty() && effects.isEmpty();
    }
}
