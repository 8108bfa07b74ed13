package dev.gantry.scheduler.preempt;

import dev.gantry.common.config.ClusterConfig;
import dev.gantry.common.config.ConfigParser;
import dev.gantry.common.job.PendingReason;
import dev.gantry.scheduler.model.JobControls;
import dev.gantry.scheduler.model.JobRecord;
import dev.gantry.scheduler.model.JobRequest;
import dev.gantry.scheduler.model.JobState;
import dev.gantry.scheduler.model.NodeSelection;
import dev.gantry.scheduler.model.NodeShare;
import dev.gantry.scheduler.model.ResourceAsk;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** Test builders: {@code aJob(7).partition("low").on("n1").ranFor(600)}, running at {@link #NOW} unless pending. */
final class RunningJobs {
    private RunningJobs() {}

    static final Instant NOW = Instant.parse("2026-11-22T12:00:00Z");

    /** Four 4-CPU 8 GiB nodes. */
    static final String NODES = "NodeName=n[1-4] CPUs=4 RealMemory=8192\n";

    static PreemptSettings settings(String configLines) {
        return PreemptSettings.of(config(configLines));
    }

    static ClusterConfig config(String configLines) {
        return ConfigParser.parse(Path.of("t.conf"), NODES + configLines);
    }

    static Builder aJob(long id) {
        return new Builder(id);
    }

    static final class Builder {
        private final long id;
        private String user = "alice";
        private String partition = "low";
        private String qos = "normal";
        private long priority = 100;
        private final List<NodeShare> allocation = new ArrayList<>();
        private Instant start = NOW.minusSeconds(3600);
        private Instant lastChange;
        private JobState state = JobState.RUNNING;
        private long suspendedSeconds;
        private boolean requeue = true;
        private boolean exclusive;
        private boolean exclusiveUser;
        private boolean completing;

        Builder(long id) {
            this.id = id;
        }

        Builder user(String v) { user = v; return this; }
        Builder partition(String v) { partition = v; return this; }
        Builder qos(String v) { qos = v; return this; }
        Builder priority(long v) { priority = v; return this; }
        /** One CPU and no memory on each node. */
        Builder on(String... nodes) {
            for (String n : nodes) {
                allocation.add(new NodeShare(n, 1, 0));
            }
            return this;
        }
        Builder share(String node, int cpus, long memoryMb) { allocation.add(new NodeShare(node, cpus, memoryMb)); return this; }
        Builder ranFor(long seconds) { start = NOW.minusSeconds(seconds); return this; }
        Builder resumedAgo(long seconds) { lastChange = NOW.minusSeconds(seconds); return this; }
        Builder suspendedFor(long seconds) { state = JobState.SUSPENDED; lastChange = NOW.minusSeconds(seconds); return this; }
        Builder suspendedBefore(long seconds) { suspendedSeconds = seconds; return this; }
        Builder noRequeue() { requeue = false; return this; }
        Builder exclusive() { exclusive = true; return this; }
        /** sbatch --exclusive=user. */
        Builder exclusiveUser() { exclusiveUser = true; return this; }
        Builder completing() { completing = true; return this; }
        Builder pending() { state = JobState.PENDING; start = null; lastChange = NOW.minusSeconds(10); return this; }

        JobRecord build() {
            JobControls controls = new JobControls("", qos, 0, requeue, 0, JobControls.Hold.NONE, null, "", 0, -1, "", 0,
                    false);
            NodeSelection selection = new NodeSelection(List.of(), exclusive, "", List.of(), List.of(), false, false);
            int nodes = Math.max(1, allocation.size());
            ResourceAsk ask = new ResourceAsk(nodes, nodes, nodes, 1, 0, 0, 0, selection);
            Instant change = lastChange != null ? lastChange : start;
            JobRequest request = exclusiveUser ? JobRequest.builder().exclusiveUser(true).build() : JobRequest.EMPTY;
            return new JobRecord(id, request, "job" + id, user, 1000, 1000, List.of(partition),
                    ask, 3600, state, completing, PendingReason.NONE, partition, allocation,
                    NOW.minusSeconds(7200), start, null, change, 0, 0, priority, controls, null, suspendedSeconds);
        }
    }
}
