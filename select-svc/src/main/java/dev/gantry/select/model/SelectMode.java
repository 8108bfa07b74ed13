package dev.gantry.select.model;

import dev.gantry.placement.Consumables;

/** The select plugin in force (SelectType=, https://slurm.schedmd.com/slurm.conf.html#OPT_SelectType). */
public enum SelectMode {
    /** select/linear: jobs get whole nodes; a node runs one job at a time. */
    LINEAR,
    /** select/cons_tres (Slurm's default; also stands for cons_res): CPUs and memory are shared out per job. */
    CONS_TRES;

    /** "select/linear" is LINEAR; anything else, including unset, is Slurm's default cons_tres. */
    public static SelectMode fromSelectType(String selectType) {
        return Consumables.linear(selectType) ? LINEAR : CONS_TRES;
    }
}
