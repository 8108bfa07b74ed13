/**
 * When two jobs cannot run at the same time on what they hold — the overlap rule of Slurm's gang scheduler
 * (https://slurm.schedmd.com/gang_scheduling.html, "Consumable Resource Examples"; src/slurmctld/gang.c
 * {@code _job_fits_in_active_row}). One implementation for every service that needs it: gang-svc builds its active
 * sets with it, and scheduler-svc checks with it that a resume gang-svc asks for overlaps no running job of the same
 * or a higher PriorityTier.
 *
 * <p>Data: a {@link dev.gantry.common.overlap.NodeTable} maps node names to dense indices with each node's CPUs and
 * cores per socket; a {@link dev.gantry.common.overlap.Holding} is one job's nodes, CPU counts and core ids resolved
 * against it; an {@link dev.gantry.common.overlap.ActiveSet} (Slurm's "active bitmap") accumulates holdings during
 * one rebuild and answers whether another fits. {@link dev.gantry.common.overlap.OverlapRule} picks the set's kind
 * from SelectType and SelectTypeParameters. Pure: no framework, no clock, not thread-safe.
 */
package dev.gantry.common.overlap;
