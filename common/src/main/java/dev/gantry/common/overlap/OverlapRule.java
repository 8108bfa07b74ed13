package dev.gantry.common.overlap;

import java.util.BitSet;
import java.util.Locale;

/**
 * When two jobs of a partition cannot run at the same time, per SelectType/SelectTypeParameters, as Slurm's gang
 * scheduler decides it (https://slurm.schedmd.com/gang_scheduling.html, "Consumable Resource Examples"):
 * <ul>
 *   <li>{@link WholeNodes}: select/linear (and cons_tres with CR_Memory only) — any shared node;</li>
 *   <li>{@link SpecificCores}: CR_Core, CR_Core_Memory — any shared core id (jobs stay pinned to their cores);</li>
 *   <li>{@link Sockets}: CR_Socket, CR_Socket_Memory — any shared socket;</li>
 *   <li>{@link CountedCpus}: CR_CPU, CR_CPU_Memory — CPUs are counted per node, so every sharing job rotates.</li>
 * </ul>
 * Under the core and socket rules, a node held without core ids counts as held whole (the conservative reading).
 */
public sealed interface OverlapRule {

    /** An empty active set for the nodes of {@code table}. */
    ActiveSet emptySet(NodeTable table);

    /** The rule for a snapshot's SelectType and SelectTypeParameters (unknown or empty: Gantry's default CR_Core). */
    static OverlapRule of(String selectType, String selectTypeParameters) {
        if (selectType.equalsIgnoreCase("select/linear")) {
            return new WholeNodes();
        }
        String params = selectTypeParameters.toUpperCase(Locale.ROOT);
        if (params.startsWith("CR_CPU")) {
            return new CountedCpus();
        }
        if (params.startsWith("CR_SOCKET")) {
            return new Sockets();
        }
        if (params.equals("CR_MEMORY")) {
            return new WholeNodes();
        }
        return new SpecificCores();
    }

    record WholeNodes() implements OverlapRule {
        @Override
        public ActiveSet emptySet(NodeTable table) {
            BitSet held = new BitSet(table.size());
            return new ActiveSet() {
                @Override
                public boolean fits(Holding job) {
                    for (int node : job.nodes()) {
                        if (held.get(node)) {
                            return false;
                        }
                    }
                    return true;
                }

                @Override
                public void add(Holding job) {
                    for (int node : job.nodes()) {
                        held.set(node);
                    }
                }
            };
        }
    }

    record CountedCpus() implements OverlapRule {
        @Override
        public ActiveSet emptySet(NodeTable table) {
            int[] used = new int[table.size()];
            return new ActiveSet() {
                @Override
                public boolean fits(Holding job) {
                    for (int i = 0; i < job.nodes().length; i++) {
                        int node = job.nodes()[i];
                        if (used[node] > 0 && used[node] + job.cpus()[i] > table.cpus(node)) {
                            return false;
                        }
                    }
                    return true;
                }

                @Override
                public void add(Holding job) {
                    for (int i = 0; i < job.nodes().length; i++) {
                        used[job.nodes()[i]] += job.cpus()[i];
                    }
                }
            };
        }
    }

    record SpecificCores() implements OverlapRule {
        @Override
        public ActiveSet emptySet(NodeTable table) {
            return new UnitSet(table, false);
        }
    }

    record Sockets() implements OverlapRule {
        @Override
        public ActiveSet emptySet(NodeTable table) {
            return new UnitSet(table, true);
        }
    }
}
