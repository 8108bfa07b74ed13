package dev.gantry.cli.sinfo;

import dev.gantry.cli.model.NodeInfo;
import dev.gantry.cli.model.NodeStatus;
import java.util.Locale;

/**
 * A node's state as Slurm's commands name it: a base state plus the DRAIN and NOT_RESPONDING flags
 * (node_state_string, node_state_string_compact, node_state_string_complete in src/common/slurm_protocol_defs.c).
 *
 * @param base the base state
 * @param drain drained or draining: no new jobs
 * @param notResponding heartbeats stopped; printed as a trailing '*'
 */
public record NodeCondition(NodeStatus base, boolean drain, boolean notResponding) {

    private static final int FLAG_DRAIN = 0x0200;
    private static final int FLAG_NO_RESPOND = 0x0800;

    /** The condition of a node as the controller reports it. */
    public static NodeCondition of(NodeInfo node) {
        return new NodeCondition(node.state(), node.drain(), node.notResponding());
    }

    /** sinfo's %t, lower case: idle, mix, alloc, down, drain, drng, unk; '*' when not responding. */
    public String compact() {
        String name;
        if (drain) {
            name = busy() ? "DRNG" : "DRAIN";
        } else {
            name = switch (base) {
                case IDLE -> "IDLE";
                case MIXED -> "MIX";
                case ALLOCATED -> "ALLOC";
                case DOWN -> "DOWN";
                case UNKNOWN -> "UNK";
            };
        }
        return name.toLowerCase(Locale.ROOT) + (notResponding ? "*" : "");
    }

    /** sinfo's %T, lower case: idle, mixed, allocated, down, drained, draining, unknown; '*' when not responding. */
    public String full() {
        String name = drain ? (busy() ? "DRAINING" : "DRAINED") : baseName();
        return name.toLowerCase(Locale.ROOT) + (notResponding ? "*" : "");
    }

    /** scontrol's State=: the base state then "+DRAIN", "+NOT_RESPONDING", e.g. "IDLE+DRAIN". */
    public String complete() {
        return baseName() + (drain ? "+DRAIN" : "") + (notResponding ? "+NOT_RESPONDING" : "");
    }

    /** Slurm's numeric node state (base | flags); sinfo's default order sorts rows by it, highest first. */
    public int slurmCode() {
        int code = switch (base) {
            case DOWN -> 1;
            case IDLE -> 2;
            case ALLOCATED -> 3;
            case MIXED -> 5;
            case UNKNOWN -> 0;
        };
        return code | (drain ? FLAG_DRAIN : 0) | (notResponding ? FLAG_NO_RESPOND : 0);
    }

    private boolean busy() {
        return base == NodeStatus.ALLOCATED || base == NodeStatus.MIXED;
    }

    private String baseName() {
        return switch (base) {
            case IDLE -> "IDLE";
            case MIXED -> "MIXED";
            case ALLOCATED -> "ALLOCATED";
            case DOWN -> "DOWN";
            case UNKNOWN -> "UNKNOWN";
        };
    }
}
