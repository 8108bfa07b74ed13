package dev.gantry.common.config;

/**
 * The state a NodeName= line gives its nodes (https://slurm.schedmd.com/slurm.conf.html#OPT_State): UNKNOWN (the
 * default: usable once its agent registers), IDLE, DOWN and DRAIN (not given jobs until an operator resumes it), or
 * FUTURE (defined, not yet in service).
 */
public enum ConfiguredNodeState {
    UNKNOWN, IDLE, DOWN, DRAIN, FUTURE
}
