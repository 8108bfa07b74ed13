package dev.gantry.scheduler.runtime;

import static dev.gantry.scheduler.Fixtures.T0;
import static dev.gantry.scheduler.Fixtures.aJob;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.common.job.PendingReason;
import dev.gantry.scheduler.Fixtures;
import dev.gantry.scheduler.model.ClusterState;
import dev.gantry.scheduler.model.JobState;
import dev.gantry.scheduler.model.NodeShare;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The state gauges: what the dashboards' utilization and pending-reason panels read. {@link SchedulerMetrics#refresh}
 * is a function of a {@link ClusterState}, so these tests build that state as a value, with no controller (no
 * controller's state is written): each of the {@link PendingReason}s is set by hand, where a controller would need a
 * scenario per reason (QOS limits, dependencies, partition states, select-svc's answers) to reach it.
 */
class SchedulerMetricsTest {

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final SchedulerMetrics metrics = new SchedulerMetrics(registry);
    private final ClusterState state = new ClusterState(Fixtures.config());

    private double gauge(String name, String... tags) {
        Gauge g = registry.find(name).tags(tags).gauge();
        return g == null ? Double.NaN : g.value();
    }

    @Test
    void cpusAndMemory_totalIsEveryConfiguredNode_allocatedIsWhatJobsHold() {
        // Fixtures.config(): n[1-4] CPUs=4 RealMemory=8192, b[1-2] CPUs=8 RealMemory=16384.
        state.put(aJob(1).build().toBuilder().state(JobState.RUNNING, T0)
                .allocation(List.of(new NodeShare("n1", 3, 1000), new NodeShare("b1", 2, 24))).startTime(T0).build());
        metrics.refresh(state);
        assertEquals(4 * 4 + 2 * 8, gauge("gantry_node_cpus", "state", "total"));
        assertEquals(5, gauge("gantry_node_cpus", "state", "allocated"));
        assertEquals((4 * 8192L + 2 * 16384L) << 20, gauge("gantry_node_memory_bytes", "state", "total"));
        assertEquals(1024L << 20, gauge("gantry_node_memory_bytes", "state", "allocated"));
    }

    @Test
    void gpus_totalIsEveryConfiguredNodes_allocatedIsWhatJobsHold_typedOrNot() {
        ClusterState gpus = new ClusterState(dev.gantry.common.config.ConfigParser.parse(java.nio.file.Path.of("g.conf"), """
                GresTypes=gpu
                NodeName=g1 CPUs=4 RealMemory=8192 Gres=gpu:a100:4
                NodeName=g2 CPUs=4 RealMemory=8192 Gres=gpu:2
                PartitionName=p Nodes=g[1-2] Default=YES State=UP
                """));
        gpus.put(aJob(1).partitions("p").build().toBuilder().state(JobState.RUNNING, T0).startTime(T0).allocation(List.of(
                new NodeShare("g1", 1, 0, List.of(), List.of(new dev.gantry.scheduler.model.GresGrant("gpu", "a100", 3, List.of()))),
                new NodeShare("g2", 1, 0, List.of(), List.of(new dev.gantry.scheduler.model.GresGrant("gpu", "", 1, List.of())))))
                .build());
        metrics.refresh(gpus);
        assertEquals(6, gauge("gantry_node_gres", "name", "gpu", "state", "total"));
        assertEquals(4, gauge("gantry_node_gres", "name", "gpu", "state", "allocated"));
    }

    @Test
    void pendingJobs_areCountedByPartitionAndReason_andRowsGoWhenTheJobsStart() {
        state.put(aJob(1).build().toBuilder().pendingReason(PendingReason.RESOURCES).build());
        state.put(aJob(2).build().toBuilder().pendingReason(PendingReason.PRIORITY).build());
        state.put(aJob(3).build().toBuilder().pendingReason(PendingReason.PRIORITY).build());
        metrics.refresh(state);
        assertEquals(1, gauge("gantry_jobs_pending", "partition", "debug", "reason", "Resources"));
        assertEquals(2, gauge("gantry_jobs_pending", "partition", "debug", "reason", "Priority"));

        state.put(state.job(1).toBuilder().state(JobState.RUNNING, T0).startTime(T0).build());
        metrics.refresh(state);
        assertNull(registry.find("gantry_jobs_pending").tags("reason", "Resources").gauge(), "no pending job has that reason now");
    }

    @ParameterizedTest(name = "{0} is labelled by its Slurm name")
    @EnumSource(PendingReason.class)
    void pendingReasonLabel_isSlurmsReasonName_soTheSeriesStayBounded(PendingReason reason) {
        state.put(aJob(1).build().toBuilder().pendingReason(reason).build());
        metrics.refresh(state);
        assertEquals(1, gauge("gantry_jobs_pending", "partition", "debug", "reason", reason.slurmName()));
        assertTrue(reason.slurmName().matches("[A-Za-z]{1,40}"), "a label of the fixed set: " + reason.slurmName());
    }
}
