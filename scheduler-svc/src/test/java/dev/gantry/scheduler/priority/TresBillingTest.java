package dev.gantry.scheduler.priority;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gantry.common.config.TresWeights;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/** Billing = Σ weight × TRES (MAX_TRES: the largest term), as Slurm's priority_multifactor page shows. */
class TresBillingTest {

    private static final long GB = 1024;

    @ParameterizedTest(name = "{0} CPUs, {1} GB: sum {2}, max {3}")
    @CsvSource({"1, 60, 16, 15", "16, 1, 16.25, 16", "16, 60, 31, 16"})
    void slurmsExample_CpuOneAndMemQuarterPerGb(long cpus, long gb, double sum, double max) {
        TresWeights w = TresWeights.parse("CPU=1.0,Mem=0.25G");
        TresAmount job = TresAmount.of(cpus, gb * GB, 1);
        assertEquals(sum, new TresBilling(w, false).billing(job), 1e-12);
        assertEquals(max, new TresBilling(w, true).billing(job), 1e-12);
    }

    @Test
    void issueExample_cpuMemAndGpu() {
        TresBilling b = new TresBilling(TresWeights.parse("CPU=1.0,Mem=0.152G,GRES/gpu=250"), false);
        TresAmount job = TresAmount.of(4, 16 * GB, 1, 1);
        assertEquals(4 + 16 * 0.152 + 250, b.billing(job), 1e-9);
        assertEquals(0.152, b.perUnit("mem") * 1024, 1e-12);
        assertEquals(250, b.perUnit("gres/gpu"));
    }

    @Test
    void noWeights_billCpusOnly() {
        assertEquals(8, TresBilling.CPUS.billing(TresAmount.of(8, 64 * GB, 2, 4)));
        assertEquals(1, TresBilling.CPUS.perUnit("cpu"));
        assertEquals(0, TresBilling.CPUS.perUnit("gres/gpu"));
    }

    @Test
    void charge_isBillingTimesSecondsTimesUsageFactor_andTracksEachTres() {
        TresBilling b = new TresBilling(TresWeights.parse("CPU=1.0,Mem=0.25G,GRES/gpu=10"), false);
        UsageCharge c = b.charge(TresAmount.of(2, 4 * GB, 1, 1), 3600, 0.5);
        assertEquals((2 + 4 * 0.25 + 10) * 3600 * 0.5, c.billingSeconds(), 1e-9);
        assertEquals(Map.of("cpu", 3600.0, "mem", 4 * GB * 1800.0, "node", 1800.0, "gres/gpu", 1800.0),
                c.tresSeconds());
    }
}
