package dev.gantry.cli.scontrol;

import dev.gantry.cli.model.GresInfo;
import dev.gantry.cli.model.JobInfo;
import dev.gantry.cli.model.NodeAllocation;
import dev.gantry.cli.text.IdRanges;
import dev.gantry.common.hostlist.Hostlist;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.ToIntFunction;

/**
 * What {@code scontrol -d show job} adds for a job that holds resources, as Slurm 22.05 prints it (src/api/job_info.c):
 * {@code JOB_GRES=} (the job's GRES in total, {@code (null)} when none), then one line per run of nodes in node order
 * whose allocation is the same: {@code Nodes=n[1-2] CPU_IDs=0-1 Mem=2048 GRES=gpu:a100:1(IDX:0)}. CPU ids are the held
 * cores' hardware threads ({@code core × ThreadsPerCore + thread}); Mem is the MiB held there; GRES each pool's count
 * with its device indices. An allocation made without core ids (SelectTypeParameters=CR_CPU, select/linear) prints
 * {@code CPU_IDs=N/A}: Gantry does not know which CPUs it has there.
 *
 * @param threadsPerCore a node's ThreadsPerCore (1 when not known)
 */
record JobDetailLines(ToIntFunction<String> threadsPerCore) {

    /** The lines, without line ends; empty when the job holds nothing. */
    List<String> of(JobInfo job) {
        List<NodeAllocation> allocation = job.resources().allocation();
        if (allocation.isEmpty()) {
            return List.of();
        }
        List<String> lines = new ArrayList<>();
        lines.add("JOB_GRES=" + jobGres(allocation));
        List<NodeAllocation> nodes = new ArrayList<>(allocation);
        nodes.sort(Comparator.comparing(NodeAllocation::node, JobDetailLines::nodeOrder));
        List<String> run = new ArrayList<>();
        String runValues = null;
        for (NodeAllocation a : nodes) {
            String values = "CPU_IDs=" + cpuIds(a) + " Mem=" + a.memoryMb() + " GRES=" + gres(a.gres());
            if (!values.equals(runValues) && !run.isEmpty()) {
                lines.add("  Nodes=" + Hostlist.compress(run) + " " + runValues);
                run.clear();
            }
            run.add(a.node());
            runValues = values;
        }
        lines.add("  Nodes=" + Hostlist.compress(run) + " " + runValues);
        return lines;
    }

    /** Slurm's bit_fmt of the held CPUs: {@code 0-3,8}. */
    private String cpuIds(NodeAllocation a) {
        if (a.coreIds().isEmpty()) {
            return "N/A";
        }
        int threads = Math.max(1, threadsPerCore.applyAsInt(a.node()));
        TreeSet<Integer> cpus = new TreeSet<>();
        for (int core : a.coreIds()) {
            for (int t = 0; t < threads; t++) {
                cpus.add(core * threads + t);
            }
        }
        return IdRanges.format(List.copyOf(cpus));
    }


    /** One node's GRES: {@code gpu:a100:1(IDX:0),gpu:v100:1(IDX:2)}, {@code gpu(CNT:1)} without indices. */
    private static String gres(List<GresInfo> held) {
        List<String> parts = new ArrayList<>();
        for (GresInfo g : held) {
            if (g.count() == 0) {
                continue;
            }
            String name = g.typedName();
            parts.add(g.indices().isEmpty() ? name + "(CNT:" + g.count() + ")"
                    : name + ":" + g.count() + "(IDX:" + IdRanges.format(List.copyOf(new TreeSet<>(g.indices()))) + ")");
        }
        return String.join(",", parts);
    }

    /** The job's GRES summed over its nodes per name and type: {@code gpu:a100:2}; {@code (null)} when none. */
    private static String jobGres(List<NodeAllocation> allocation) {
        Map<String, Long> total = new LinkedHashMap<>();
        for (NodeAllocation a : allocation) {
            for (GresInfo g : a.gres()) {
                total.merge(g.typedName(), g.count(), Long::sum);
            }
        }
        total.values().removeIf(c -> c == 0);
        if (total.isEmpty()) {
            return "(null)";
        }
        List<String> parts = new ArrayList<>();
        total.forEach((name, count) -> parts.add(name + ":" + count));
        return String.join(",", parts);
    }

    /** Node names in Slurm's usual order: by prefix, then by number ({@code n2} before {@code n10}). */
    private static int nodeOrder(String a, String b) {
        int da = digitsStart(a);
        int db = digitsStart(b);
        int byPrefix = a.substring(0, da).compareTo(b.substring(0, db));
        if (byPrefix != 0 || da == a.length() || db == b.length()) {
            return byPrefix != 0 ? byPrefix : a.compareTo(b);
        }
        int byNumber = new java.math.BigInteger(a.substring(da)).compareTo(new java.math.BigInteger(b.substring(db)));
        return byNumber != 0 ? byNumber : a.compareTo(b);
    }

    private static int digitsStart(String name) {
        int i = name.length();
        while (i > 0 && Character.isDigit(name.charAt(i - 1))) {
            i--;
        }
        return i;
    }
}
