/**
 * The placement core: the rules by which a job fits a node, shared by select-svc (which proposes placements) and
 * scheduler-svc (which validates them before acting), so the two cannot disagree. Its own Maven module with no
 * dependency beyond the JDK: no gRPC, protobuf, Micronaut, threads or clock, by construction (ArchitectureTest checks it).
 *
 * <p>Data: a node's {@link dev.gantry.placement.CpuLayout} and GRES {@link dev.gantry.placement.GresPool pools}; what
 * SelectType/SelectTypeParameters make consumable ({@link dev.gantry.placement.Consumables}: the allocation
 * {@link dev.gantry.placement.ResourceUnit} and whether memory is tracked); a job's
 * {@link dev.gantry.placement.JobSizing} (tasks, CPUs per task after MaxMemPerCPU, memory after the partition's
 * defaults) and {@link dev.gantry.placement.Sharing} (OverSubscribe, --exclusive); per node its
 * {@link dev.gantry.placement.NodeDemand}. Who holds what is counted per unit by {@link dev.gantry.placement.UnitHolders}
 * (how many jobs hold each core or CPU, and of which partition: units are shared only within a partition, up to its
 * OverSubscribe count) — in select-svc's ledger for every node of a plan, in {@link dev.gantry.placement.NodeUse} for
 * one node under check.
 *
 * <p>Algorithm: {@link dev.gantry.placement.NodeFit#misfit} is the per-node rule of Slurm's cons_tres
 * (src/plugins/select/cons_tres/job_test.c, {@code _can_job_run_on_node}; https://slurm.schedmd.com/cons_tres.html):
 * usable node, not held whole, user exclusivity (https://slurm.schedmd.com/sbatch.html#OPT_exclusive), hardware, whole
 * node or enough free or shareable units, memory charged per allocated CPU or per node, GRES. select-svc's ledger asks it
 * of each candidate node; {@link dev.gantry.placement.ShareCheck} asks it of each node of a proposal, then checks the
 * proposal gives what the job must get and names units and GRES that are free. Pure; not thread-safe.
 */
package dev.gantry.placement;
