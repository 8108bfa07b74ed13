package dev.gantry.select.preempt;

import dev.gantry.select.placement.StartTrial;
import java.util.Optional;
import java.util.Random;

/**
 * How many fewer CPUs the default preemption policy preempts than Slurm's two-stage baseline, over the property test's
 * random cases with seeds 1..N: {@code java … PreemptionComparison [N]}.
 */
public final class PreemptionComparison {
    public static void main(String[] args) {
        int cases = args.length > 0 ? Integer.parseInt(args[0]) : 10_000;
        LeastPreemptionPolicy gantry = new LeastPreemptionPolicy();
        SlurmTwoStagePolicy slurm = new SlurmTwoStagePolicy();
        long needed = 0;
        long better = 0;
        long worse = 0;
        long slurmCpus = 0;
        long gantryCpus = 0;
        long slurmJobs = 0;
        long gantryJobs = 0;
        for (long seed = 1; seed <= cases; seed++) {
            PreemptionPropertyTest.PreemptionCase c = PreemptionPropertyTest.PreemptionCase.random(new Random(seed));
            StartTrial trial = new StartTrial(c.view());
            Optional<PreemptingPlacement> s = slurm.place(trial, c.job(), c.preemptable());
            Optional<PreemptingPlacement> g = gantry.place(trial, c.job(), c.preemptable());
            if (s.isEmpty() || g.isEmpty() || s.get().victims().isEmpty()) {
                continue;
            }
            needed++;
            slurmCpus += s.get().preemptedCpus();
            gantryCpus += g.get().preemptedCpus();
            slurmJobs += s.get().victims().size();
            gantryJobs += g.get().victims().size();
            better += g.get().preemptedCpus() < s.get().preemptedCpus() ? 1 : 0;
            worse += g.get().preemptedCpus() > s.get().preemptedCpus() ? 1 : 0;
        }
        System.out.printf("%d random cases, %d needed preemption%n", cases, needed);
        System.out.printf("CPUs preempted: Slurm two-stage %d, Gantry default %d (%.1f%% fewer)%n", slurmCpus, gantryCpus,
                100.0 * (slurmCpus - gantryCpus) / Math.max(1, slurmCpus));
        System.out.printf("jobs preempted: Slurm two-stage %d, Gantry default %d%n", slurmJobs, gantryJobs);
        System.out.printf("cases where the default preempts fewer CPUs: %d, more: %d%n", better, worse);
    }
}
